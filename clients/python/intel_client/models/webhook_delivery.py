from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.delivery_result import DeliveryResult
from ..models.webhook_event_type import WebhookEventType
from typing import cast






T = TypeVar("T", bound="WebhookDelivery")



@_attrs_define
class WebhookDelivery:
    """ 
        Attributes:
            event_id (str): the event id, sent as `webhook-id` (the same on every attempt)
            type_ (WebhookEventType):
            attempt (int):
            at (str): ISO time of the attempt
            status_code (int | None): the endpoint's HTTP status; null when no answer came
            error (None | str): why the attempt failed, when it did
            result (DeliveryResult): delivered: a 2xx answer; retrying: another attempt is scheduled; failed: given up after
                about three days; disabled: the endpoint answered 410 Gone
            next_retry_at (None | str): ISO time of the next attempt (result retrying)
            duration_ms (int):
     """

    event_id: str
    type_: WebhookEventType
    attempt: int
    at: str
    status_code: int | None
    error: None | str
    result: DeliveryResult
    next_retry_at: None | str
    duration_ms: int





    def to_dict(self) -> dict[str, Any]:
        event_id = self.event_id

        type_ = self.type_.value

        attempt = self.attempt

        at = self.at

        status_code: int | None
        status_code = self.status_code

        error: None | str
        error = self.error

        result = self.result.value

        next_retry_at: None | str
        next_retry_at = self.next_retry_at

        duration_ms = self.duration_ms


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "eventId": event_id,
            "type": type_,
            "attempt": attempt,
            "at": at,
            "statusCode": status_code,
            "error": error,
            "result": result,
            "nextRetryAt": next_retry_at,
            "durationMs": duration_ms,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        event_id = d.pop("eventId")

        type_ = WebhookEventType(d.pop("type"))




        attempt = d.pop("attempt")

        at = d.pop("at")

        def _parse_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status_code = _parse_status_code(d.pop("statusCode"))


        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))


        result = DeliveryResult(d.pop("result"))




        def _parse_next_retry_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_retry_at = _parse_next_retry_at(d.pop("nextRetryAt"))


        duration_ms = d.pop("durationMs")

        webhook_delivery = cls(
            event_id=event_id,
            type_=type_,
            attempt=attempt,
            at=at,
            status_code=status_code,
            error=error,
            result=result,
            next_retry_at=next_retry_at,
            duration_ms=duration_ms,
        )

        return webhook_delivery

