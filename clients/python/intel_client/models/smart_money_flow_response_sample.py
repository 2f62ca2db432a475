from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="SmartMoneyFlowResponseSample")



@_attrs_define
class SmartMoneyFlowResponseSample:
    """ grades of the most recent distinct buyers (any time), as many as `sample` asked for

        Attributes:
            requested (int):
            buyers (int):
            graded (int):
            mirror_worthy (int):
     """

    requested: int
    buyers: int
    graded: int
    mirror_worthy: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        requested = self.requested

        buyers = self.buyers

        graded = self.graded

        mirror_worthy = self.mirror_worthy


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "requested": requested,
            "buyers": buyers,
            "graded": graded,
            "mirrorWorthy": mirror_worthy,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        requested = d.pop("requested")

        buyers = d.pop("buyers")

        graded = d.pop("graded")

        mirror_worthy = d.pop("mirrorWorthy")

        smart_money_flow_response_sample = cls(
            requested=requested,
            buyers=buyers,
            graded=graded,
            mirror_worthy=mirror_worthy,
        )


        smart_money_flow_response_sample.additional_properties = d
        return smart_money_flow_response_sample

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
