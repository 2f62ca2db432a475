from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.verdict import Verdict
from typing import cast






T = TypeVar("T", bound="CopyOverlapResponseLeadersItem")



@_attrs_define
class CopyOverlapResponseLeadersItem:
    """ 
        Attributes:
            wallet (str):
            grade (None | Verdict):
            tokens (int):
            known (bool):
     """

    wallet: str
    grade: None | Verdict
    tokens: int
    known: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        wallet = self.wallet

        grade: None | str
        if isinstance(self.grade, Verdict):
            grade = self.grade.value
        else:
            grade = self.grade

        tokens = self.tokens

        known = self.known


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "wallet": wallet,
            "grade": grade,
            "tokens": tokens,
            "known": known,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        wallet = d.pop("wallet")

        def _parse_grade(data: object) -> None | Verdict:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                grade_type_0 = Verdict(data)



                return grade_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Verdict, data)

        grade = _parse_grade(d.pop("grade"))


        tokens = d.pop("tokens")

        known = d.pop("known")

        copy_overlap_response_leaders_item = cls(
            wallet=wallet,
            grade=grade,
            tokens=tokens,
            known=known,
        )


        copy_overlap_response_leaders_item.additional_properties = d
        return copy_overlap_response_leaders_item

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
