from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="UsageResponseBudget")



@_attrs_define
class UsageResponseBudget:
    """ 
        Attributes:
            daily_units (int):
            used_units (int):
            remaining_units (int):
            resets_at (str):
     """

    daily_units: int
    used_units: int
    remaining_units: int
    resets_at: str





    def to_dict(self) -> dict[str, Any]:
        daily_units = self.daily_units

        used_units = self.used_units

        remaining_units = self.remaining_units

        resets_at = self.resets_at


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "dailyUnits": daily_units,
            "usedUnits": used_units,
            "remainingUnits": remaining_units,
            "resetsAt": resets_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        daily_units = d.pop("dailyUnits")

        used_units = d.pop("usedUnits")

        remaining_units = d.pop("remainingUnits")

        resets_at = d.pop("resetsAt")

        usage_response_budget = cls(
            daily_units=daily_units,
            used_units=used_units,
            remaining_units=remaining_units,
            resets_at=resets_at,
        )

        return usage_response_budget

