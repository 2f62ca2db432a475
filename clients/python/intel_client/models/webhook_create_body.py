from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.webhook_create_body_events_item import WebhookCreateBodyEventsItem
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="WebhookCreateBody")



@_attrs_define
class WebhookCreateBody:
    """ 
        Attributes:
            url (str): where events are POSTed: https on port 443 to a name or address that is public (loopback and private
                addresses only where the deployment allows them, for development)
            events (list[WebhookCreateBodyEventsItem] | Unset): event types to send; every type when omitted
            topics (list[str] | Unset): live stream topics whose events are pushed to it, as the WebSocket stream subscribes
                to them: token:<chain>:<address> (token.changed), board:<chain> (board.changed), wallet:<chain>:<address>
                (wallet.grade); at most 100. Each pushed event it answers 2xx to costs 1 unit, billed to this key
            description (str | Unset):
     """

    url: str
    events: list[WebhookCreateBodyEventsItem] | Unset = UNSET
    topics: list[str] | Unset = UNSET
    description: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        url = self.url

        events: list[str] | Unset = UNSET
        if not isinstance(self.events, Unset):
            events = []
            for events_item_data in self.events:
                events_item = events_item_data.value
                events.append(events_item)



        topics: list[str] | Unset = UNSET
        if not isinstance(self.topics, Unset):
            topics = self.topics



        description = self.description


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "url": url,
        })
        if events is not UNSET:
            field_dict["events"] = events
        if topics is not UNSET:
            field_dict["topics"] = topics
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        _events = d.pop("events", UNSET)
        events: list[WebhookCreateBodyEventsItem] | Unset = UNSET
        if _events is not UNSET:
            events = []
            for events_item_data in _events:
                events_item = WebhookCreateBodyEventsItem(events_item_data)



                events.append(events_item)


        topics = cast(list[str], d.pop("topics", UNSET))


        description = d.pop("description", UNSET)

        webhook_create_body = cls(
            url=url,
            events=events,
            topics=topics,
            description=description,
        )

        return webhook_create_body

