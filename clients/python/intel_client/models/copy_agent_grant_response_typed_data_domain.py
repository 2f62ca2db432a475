from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="CopyAgentGrantResponseTypedDataDomain")



@_attrs_define
class CopyAgentGrantResponseTypedDataDomain:
    """ 
        Attributes:
            name (str):
            version (str):
     """

    name: str
    version: str





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        version = self.version


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "version": version,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        version = d.pop("version")

        copy_agent_grant_response_typed_data_domain = cls(
            name=name,
            version=version,
        )

        return copy_agent_grant_response_typed_data_domain

