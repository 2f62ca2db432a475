from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="TokenOverviewResponseTokenIntelType1")



@_attrs_define
class TokenOverviewResponseTokenIntelType1:
    """ 
        Attributes:
            error (str):
            detail (str):
     """

    error: str
    detail: str





    def to_dict(self) -> dict[str, Any]:
        error = self.error

        detail = self.detail


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "error": error,
            "detail": detail,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        error = d.pop("error")

        detail = d.pop("detail")

        token_overview_response_token_intel_type_1 = cls(
            error=error,
            detail=detail,
        )

        return token_overview_response_token_intel_type_1

