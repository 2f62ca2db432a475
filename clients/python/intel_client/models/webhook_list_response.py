from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.webhook_endpoint import WebhookEndpoint





T = TypeVar("T", bound="WebhookListResponse")



@_attrs_define
class WebhookListResponse:
    """ 
        Attributes:
            endpoints (list[WebhookEndpoint]):
            next_ (None | str): pass as `cursor` for the next page; null on the last page. Opaque: the position after the
                last item, stable when the list changes between calls
     """

    endpoints: list[WebhookEndpoint]
    next_: None | str





    def to_dict(self) -> dict[str, Any]:
        from ..models.webhook_endpoint import WebhookEndpoint # noqa: PLC0415
        endpoints = []
        for endpoints_item_data in self.endpoints:
            endpoints_item = endpoints_item_data.to_dict()
            endpoints.append(endpoints_item)



        next_: None | str
        next_ = self.next_


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "endpoints": endpoints,
            "next": next_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_endpoint import WebhookEndpoint # noqa: PLC0415
        d = dict(src_dict)
        endpoints = []
        _endpoints = d.pop("endpoints")
        for endpoints_item_data in (_endpoints):
            endpoints_item = WebhookEndpoint.from_dict(endpoints_item_data)



            endpoints.append(endpoints_item)


        def _parse_next_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_ = _parse_next_(d.pop("next"))


        webhook_list_response = cls(
            endpoints=endpoints,
            next_=next_,
        )

        return webhook_list_response

