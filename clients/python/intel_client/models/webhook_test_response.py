from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.webhook_test_response_type import WebhookTestResponseType






T = TypeVar("T", bound="WebhookTestResponse")



@_attrs_define
class WebhookTestResponse:
    """ 
        Attributes:
            endpoint_id (str):
            event_id (str):
            type_ (WebhookTestResponseType):
     """

    endpoint_id: str
    event_id: str
    type_: WebhookTestResponseType





    def to_dict(self) -> dict[str, Any]:
        endpoint_id = self.endpoint_id

        event_id = self.event_id

        type_ = self.type_.value


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "endpointId": endpoint_id,
            "eventId": event_id,
            "type": type_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        endpoint_id = d.pop("endpointId")

        event_id = d.pop("eventId")

        type_ = WebhookTestResponseType(d.pop("type"))




        webhook_test_response = cls(
            endpoint_id=endpoint_id,
            event_id=event_id,
            type_=type_,
        )

        return webhook_test_response

