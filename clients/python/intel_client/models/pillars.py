from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Pillars")



@_attrs_define
class Pillars:
    """ 
        Attributes:
            smart_money (bool):
            coiling (bool):
            low_exit (bool):
            organic (bool):
            momentum (bool):
            structure (bool):
     """

    smart_money: bool
    coiling: bool
    low_exit: bool
    organic: bool
    momentum: bool
    structure: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        smart_money = self.smart_money

        coiling = self.coiling

        low_exit = self.low_exit

        organic = self.organic

        momentum = self.momentum

        structure = self.structure


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "smartMoney": smart_money,
            "coiling": coiling,
            "lowExit": low_exit,
            "organic": organic,
            "momentum": momentum,
            "structure": structure,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        smart_money = d.pop("smartMoney")

        coiling = d.pop("coiling")

        low_exit = d.pop("lowExit")

        organic = d.pop("organic")

        momentum = d.pop("momentum")

        structure = d.pop("structure")

        pillars = cls(
            smart_money=smart_money,
            coiling=coiling,
            low_exit=low_exit,
            organic=organic,
            momentum=momentum,
            structure=structure,
        )


        pillars.additional_properties = d
        return pillars

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
