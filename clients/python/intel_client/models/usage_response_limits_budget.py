from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="UsageResponseLimitsBudget")



@_attrs_define
class UsageResponseLimitsBudget:
    """ the service's daily data budget

        Attributes:
            daily_units (int | None): units per UTC day; null: no such limit for this plan
            used_units (int):
            remaining_units (int | None):
     """

    daily_units: int | None
    used_units: int
    remaining_units: int | None





    def to_dict(self) -> dict[str, Any]:
        daily_units: int | None
        daily_units = self.daily_units

        used_units = self.used_units

        remaining_units: int | None
        remaining_units = self.remaining_units


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "dailyUnits": daily_units,
            "usedUnits": used_units,
            "remainingUnits": remaining_units,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_daily_units(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        daily_units = _parse_daily_units(d.pop("dailyUnits"))


        used_units = d.pop("usedUnits")

        def _parse_remaining_units(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        remaining_units = _parse_remaining_units(d.pop("remainingUnits"))


        usage_response_limits_budget = cls(
            daily_units=daily_units,
            used_units=used_units,
            remaining_units=remaining_units,
        )

        return usage_response_limits_budget

