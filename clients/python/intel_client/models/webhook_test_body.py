from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="WebhookTestBody")



@_attrs_define
class WebhookTestBody:
    """ 
        Attributes:
            endpoint_id (str): the endpoint id (`ep_…`) the create operation answered
     """

    endpoint_id: str





    def to_dict(self) -> dict[str, Any]:
        endpoint_id = self.endpoint_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "endpointId": endpoint_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        endpoint_id = d.pop("endpointId")

        webhook_test_body = cls(
            endpoint_id=endpoint_id,
        )

        return webhook_test_body

