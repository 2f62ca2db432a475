from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="TraderScoreResponseComponents")



@_attrs_define
class TraderScoreResponseComponents:
    """ 
        Attributes:
            edge (int):
            consistency (int):
            copyability (int):
            pnl_quality (int):
     """

    edge: int
    consistency: int
    copyability: int
    pnl_quality: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        edge = self.edge

        consistency = self.consistency

        copyability = self.copyability

        pnl_quality = self.pnl_quality


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "edge": edge,
            "consistency": consistency,
            "copyability": copyability,
            "pnlQuality": pnl_quality,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        edge = d.pop("edge")

        consistency = d.pop("consistency")

        copyability = d.pop("copyability")

        pnl_quality = d.pop("pnlQuality")

        trader_score_response_components = cls(
            edge=edge,
            consistency=consistency,
            copyability=copyability,
            pnl_quality=pnl_quality,
        )


        trader_score_response_components.additional_properties = d
        return trader_score_response_components

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
