from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="TraderBoardResponseGrades")



@_attrs_define
class TraderBoardResponseGrades:
    """ 
        Attributes:
            mirror_worthy (int):
            watch (int):
            avoid (int):
            unrated (int):
     """

    mirror_worthy: int
    watch: int
    avoid: int
    unrated: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        mirror_worthy = self.mirror_worthy

        watch = self.watch

        avoid = self.avoid

        unrated = self.unrated


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "mirror-worthy": mirror_worthy,
            "watch": watch,
            "avoid": avoid,
            "unrated": unrated,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        mirror_worthy = d.pop("mirror-worthy")

        watch = d.pop("watch")

        avoid = d.pop("avoid")

        unrated = d.pop("unrated")

        trader_board_response_grades = cls(
            mirror_worthy=mirror_worthy,
            watch=watch,
            avoid=avoid,
            unrated=unrated,
        )


        trader_board_response_grades.additional_properties = d
        return trader_board_response_grades

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
