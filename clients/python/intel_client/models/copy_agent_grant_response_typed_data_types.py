from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.copy_agent_grant_response_typed_data_types_additional_property_item import CopyAgentGrantResponseTypedDataTypesAdditionalPropertyItem





T = TypeVar("T", bound="CopyAgentGrantResponseTypedDataTypes")



@_attrs_define
class CopyAgentGrantResponseTypedDataTypes:
    

    additional_properties: dict[str, list[CopyAgentGrantResponseTypedDataTypesAdditionalPropertyItem]] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.copy_agent_grant_response_typed_data_types_additional_property_item import CopyAgentGrantResponseTypedDataTypesAdditionalPropertyItem # noqa: PLC0415
        
        field_dict: dict[str, Any] = {}
        for prop_name, prop in self.additional_properties.items():
            field_dict[prop_name] = []
            for additional_property_item_data in prop:
                additional_property_item = additional_property_item_data.to_dict()
                field_dict[prop_name].append(additional_property_item)




        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.copy_agent_grant_response_typed_data_types_additional_property_item import CopyAgentGrantResponseTypedDataTypesAdditionalPropertyItem # noqa: PLC0415
        d = dict(src_dict)
        copy_agent_grant_response_typed_data_types = cls(
        )


        additional_properties = {}
        for prop_name, prop_dict in d.items():
            additional_property = []
            _additional_property = prop_dict
            for additional_property_item_data in (_additional_property):
                additional_property_item = CopyAgentGrantResponseTypedDataTypesAdditionalPropertyItem.from_dict(additional_property_item_data)



                additional_property.append(additional_property_item)

            additional_properties[prop_name] = additional_property

        copy_agent_grant_response_typed_data_types.additional_properties = additional_properties
        return copy_agent_grant_response_typed_data_types

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> list[CopyAgentGrantResponseTypedDataTypesAdditionalPropertyItem]:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: list[CopyAgentGrantResponseTypedDataTypesAdditionalPropertyItem]) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
