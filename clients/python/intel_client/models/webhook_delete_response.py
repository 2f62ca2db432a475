from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="WebhookDeleteResponse")



@_attrs_define
class WebhookDeleteResponse:
    """ 
        Attributes:
            endpoint_id (str):
            deleted (bool):
     """

    endpoint_id: str
    deleted: bool





    def to_dict(self) -> dict[str, Any]:
        endpoint_id = self.endpoint_id

        deleted = self.deleted


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "endpointId": endpoint_id,
            "deleted": deleted,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        endpoint_id = d.pop("endpointId")

        deleted = d.pop("deleted")

        webhook_delete_response = cls(
            endpoint_id=endpoint_id,
            deleted=deleted,
        )

        return webhook_delete_response

