from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="UsageResponseRate")



@_attrs_define
class UsageResponseRate:
    """ 
        Attributes:
            plan (str):
            limit (int):
            remaining (int):
     """

    plan: str
    limit: int
    remaining: int





    def to_dict(self) -> dict[str, Any]:
        plan = self.plan

        limit = self.limit

        remaining = self.remaining


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "plan": plan,
            "limit": limit,
            "remaining": remaining,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        plan = d.pop("plan")

        limit = d.pop("limit")

        remaining = d.pop("remaining")

        usage_response_rate = cls(
            plan=plan,
            limit=limit,
            remaining=remaining,
        )

        return usage_response_rate

