from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.verdict import Verdict






T = TypeVar("T", bound="StrategyItemTopLeadersItem")



@_attrs_define
class StrategyItemTopLeadersItem:
    """ 
        Attributes:
            wallet (str):
            grade (Verdict):
            score (int):
     """

    wallet: str
    grade: Verdict
    score: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        wallet = self.wallet

        grade = self.grade.value

        score = self.score


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "wallet": wallet,
            "grade": grade,
            "score": score,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        wallet = d.pop("wallet")

        grade = Verdict(d.pop("grade"))




        score = d.pop("score")

        strategy_item_top_leaders_item = cls(
            wallet=wallet,
            grade=grade,
            score=score,
        )


        strategy_item_top_leaders_item.additional_properties = d
        return strategy_item_top_leaders_item

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
