from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.flow_direction import FlowDirection
from ..models.volume_band import VolumeBand






T = TypeVar("T", bound="ActivityWindow")



@_attrs_define
class ActivityWindow:
    """ 
        Attributes:
            buys (int):
            sells (int):
            buyers (int):
            sellers (int):
            volume_band (VolumeBand):
            buy_share_pct (float):
            net_flow (FlowDirection):
     """

    buys: int
    sells: int
    buyers: int
    sellers: int
    volume_band: VolumeBand
    buy_share_pct: float
    net_flow: FlowDirection
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        buys = self.buys

        sells = self.sells

        buyers = self.buyers

        sellers = self.sellers

        volume_band = self.volume_band.value

        buy_share_pct = self.buy_share_pct

        net_flow = self.net_flow.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "buys": buys,
            "sells": sells,
            "buyers": buyers,
            "sellers": sellers,
            "volumeBand": volume_band,
            "buySharePct": buy_share_pct,
            "netFlow": net_flow,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        buys = d.pop("buys")

        sells = d.pop("sells")

        buyers = d.pop("buyers")

        sellers = d.pop("sellers")

        volume_band = VolumeBand(d.pop("volumeBand"))




        buy_share_pct = d.pop("buySharePct")

        net_flow = FlowDirection(d.pop("netFlow"))




        activity_window = cls(
            buys=buys,
            sells=sells,
            buyers=buyers,
            sellers=sellers,
            volume_band=volume_band,
            buy_share_pct=buy_share_pct,
            net_flow=net_flow,
        )


        activity_window.additional_properties = d
        return activity_window

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
