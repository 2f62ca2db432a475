from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.error_error import ErrorError
from ..types import UNSET, Unset






T = TypeVar("T", bound="Error")



@_attrs_define
class Error:
    """ Every error: a code and a human sentence; unknown paths add hint and docs

        Attributes:
            error (ErrorError):
            detail (str):
            hint (str | Unset):
            docs (str | Unset):
     """

    error: ErrorError
    detail: str
    hint: str | Unset = UNSET
    docs: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        error = self.error.value

        detail = self.detail

        hint = self.hint

        docs = self.docs


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "error": error,
            "detail": detail,
        })
        if hint is not UNSET:
            field_dict["hint"] = hint
        if docs is not UNSET:
            field_dict["docs"] = docs

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        error = ErrorError(d.pop("error"))




        detail = d.pop("detail")

        hint = d.pop("hint", UNSET)

        docs = d.pop("docs", UNSET)

        error = cls(
            error=error,
            detail=detail,
            hint=hint,
            docs=docs,
        )

        return error

