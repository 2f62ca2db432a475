from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="ExecutionFill")



@_attrs_define
class ExecutionFill:
    """ 
        Attributes:
            price (str):
            size (str):
     """

    price: str
    size: str





    def to_dict(self) -> dict[str, Any]:
        price = self.price

        size = self.size


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "price": price,
            "size": size,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        price = d.pop("price")

        size = d.pop("size")

        execution_fill = cls(
            price=price,
            size=size,
        )

        return execution_fill

