from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.webhook_event_type import WebhookEventType
from typing import cast






T = TypeVar("T", bound="WebhookEndpointCreated")



@_attrs_define
class WebhookEndpointCreated:
    """ 
        Attributes:
            endpoint_id (str):
            url (str):
            events (list[WebhookEventType] | None): the event types sent to it; null: every type
            topics (list[str]): the live stream's topics whose events (token.changed, board.changed, wallet.grade) are
                pushed to it, as on the WebSocket stream: token:<chain>:<address>, board:<chain>, wallet:<chain>:<address>;
                empty: none
            key_id (None | str): the API key its pushed stream events are billed to (the key that created it); null: created
                in the console, no topics
            description (None | str):
            enabled (bool): false once the endpoint answered 410 Gone: nothing more is sent to it
            disabled_at (None | str): ISO time it was disabled
            disabled_reason (None | str):
            created_at (str): ISO time
            secret (str): the signing secret (`whsec_…`), shown only in this answer: verify deliveries with it (Standard
                Webhooks)
     """

    endpoint_id: str
    url: str
    events: list[WebhookEventType] | None
    topics: list[str]
    key_id: None | str
    description: None | str
    enabled: bool
    disabled_at: None | str
    disabled_reason: None | str
    created_at: str
    secret: str





    def to_dict(self) -> dict[str, Any]:
        endpoint_id = self.endpoint_id

        url = self.url

        events: list[str] | None
        if isinstance(self.events, list):
            events = []
            for events_type_0_item_data in self.events:
                events_type_0_item = events_type_0_item_data.value
                events.append(events_type_0_item)


        else:
            events = self.events

        topics = self.topics



        key_id: None | str
        key_id = self.key_id

        description: None | str
        description = self.description

        enabled = self.enabled

        disabled_at: None | str
        disabled_at = self.disabled_at

        disabled_reason: None | str
        disabled_reason = self.disabled_reason

        created_at = self.created_at

        secret = self.secret


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "endpointId": endpoint_id,
            "url": url,
            "events": events,
            "topics": topics,
            "keyId": key_id,
            "description": description,
            "enabled": enabled,
            "disabledAt": disabled_at,
            "disabledReason": disabled_reason,
            "createdAt": created_at,
            "secret": secret,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        endpoint_id = d.pop("endpointId")

        url = d.pop("url")

        def _parse_events(data: object) -> list[WebhookEventType] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                events_type_0 = []
                _events_type_0 = data
                for events_type_0_item_data in (_events_type_0):
                    events_type_0_item = WebhookEventType(events_type_0_item_data)



                    events_type_0.append(events_type_0_item)

                return events_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[WebhookEventType] | None, data)

        events = _parse_events(d.pop("events"))


        topics = cast(list[str], d.pop("topics"))


        def _parse_key_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        key_id = _parse_key_id(d.pop("keyId"))


        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))


        enabled = d.pop("enabled")

        def _parse_disabled_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        disabled_at = _parse_disabled_at(d.pop("disabledAt"))


        def _parse_disabled_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabledReason"))


        created_at = d.pop("createdAt")

        secret = d.pop("secret")

        webhook_endpoint_created = cls(
            endpoint_id=endpoint_id,
            url=url,
            events=events,
            topics=topics,
            key_id=key_id,
            description=description,
            enabled=enabled,
            disabled_at=disabled_at,
            disabled_reason=disabled_reason,
            created_at=created_at,
            secret=secret,
        )

        return webhook_endpoint_created

