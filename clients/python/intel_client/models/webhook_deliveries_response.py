from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.webhook_delivery import WebhookDelivery





T = TypeVar("T", bound="WebhookDeliveriesResponse")



@_attrs_define
class WebhookDeliveriesResponse:
    """ 
        Attributes:
            endpoint_id (str):
            pending (int): events queued for it, not yet delivered
            deliveries (list[WebhookDelivery]):
            next_ (None | str): pass as `cursor` for the next page; null on the last page. Opaque: the position after the
                last item, stable when the list changes between calls
     """

    endpoint_id: str
    pending: int
    deliveries: list[WebhookDelivery]
    next_: None | str





    def to_dict(self) -> dict[str, Any]:
        from ..models.webhook_delivery import WebhookDelivery # noqa: PLC0415
        endpoint_id = self.endpoint_id

        pending = self.pending

        deliveries = []
        for deliveries_item_data in self.deliveries:
            deliveries_item = deliveries_item_data.to_dict()
            deliveries.append(deliveries_item)



        next_: None | str
        next_ = self.next_


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "endpointId": endpoint_id,
            "pending": pending,
            "deliveries": deliveries,
            "next": next_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_delivery import WebhookDelivery # noqa: PLC0415
        d = dict(src_dict)
        endpoint_id = d.pop("endpointId")

        pending = d.pop("pending")

        deliveries = []
        _deliveries = d.pop("deliveries")
        for deliveries_item_data in (_deliveries):
            deliveries_item = WebhookDelivery.from_dict(deliveries_item_data)



            deliveries.append(deliveries_item)


        def _parse_next_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_ = _parse_next_(d.pop("next"))


        webhook_deliveries_response = cls(
            endpoint_id=endpoint_id,
            pending=pending,
            deliveries=deliveries,
            next_=next_,
        )

        return webhook_deliveries_response

