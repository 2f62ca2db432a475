from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="CopyAgentGrantResponseTypedDataTypesAdditionalPropertyItem")



@_attrs_define
class CopyAgentGrantResponseTypedDataTypesAdditionalPropertyItem:
    """ 
        Attributes:
            name (str):
            type_ (str):
     """

    name: str
    type_: str





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        type_ = self.type_


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "type": type_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        type_ = d.pop("type")

        copy_agent_grant_response_typed_data_types_additional_property_item = cls(
            name=name,
            type_=type_,
        )

        return copy_agent_grant_response_typed_data_types_additional_property_item

