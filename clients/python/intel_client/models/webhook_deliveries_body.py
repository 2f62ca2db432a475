from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="WebhookDeliveriesBody")



@_attrs_define
class WebhookDeliveriesBody:
    """ 
        Attributes:
            endpoint_id (str): the endpoint id (`ep_…`) the create operation answered
            limit (int | Unset):  Default: 50.
            cursor (str | Unset): the `next` of the previous page; omitted: the first page
     """

    endpoint_id: str
    limit: int | Unset = 50
    cursor: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        endpoint_id = self.endpoint_id

        limit = self.limit

        cursor = self.cursor


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "endpointId": endpoint_id,
        })
        if limit is not UNSET:
            field_dict["limit"] = limit
        if cursor is not UNSET:
            field_dict["cursor"] = cursor

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        endpoint_id = d.pop("endpointId")

        limit = d.pop("limit", UNSET)

        cursor = d.pop("cursor", UNSET)

        webhook_deliveries_body = cls(
            endpoint_id=endpoint_id,
            limit=limit,
            cursor=cursor,
        )

        return webhook_deliveries_body

