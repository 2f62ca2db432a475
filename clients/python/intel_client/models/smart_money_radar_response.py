from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.radar_item import RadarItem





T = TypeVar("T", bound="SmartMoneyRadarResponse")



@_attrs_define
class SmartMoneyRadarResponse:
    """ 
        Attributes:
            chain (str):
            as_of (None | str):
            age_seconds (float | None):
            window_hours (int):
            headline (str):
            accumulating (list[RadarItem]):
            next_ (None | str): pass as `cursor` for the next page; null on the last page. Opaque: the position after the
                last item, stable when the list changes between calls
            set_size (int):
            cached (bool):
     """

    chain: str
    as_of: None | str
    age_seconds: float | None
    window_hours: int
    headline: str
    accumulating: list[RadarItem]
    next_: None | str
    set_size: int
    cached: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.radar_item import RadarItem # noqa: PLC0415
        chain = self.chain

        as_of: None | str
        as_of = self.as_of

        age_seconds: float | None
        age_seconds = self.age_seconds

        window_hours = self.window_hours

        headline = self.headline

        accumulating = []
        for accumulating_item_data in self.accumulating:
            accumulating_item = accumulating_item_data.to_dict()
            accumulating.append(accumulating_item)



        next_: None | str
        next_ = self.next_

        set_size = self.set_size

        cached = self.cached


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "windowHours": window_hours,
            "headline": headline,
            "accumulating": accumulating,
            "next": next_,
            "setSize": set_size,
            "cached": cached,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.radar_item import RadarItem # noqa: PLC0415
        d = dict(src_dict)
        chain = d.pop("chain")

        def _parse_as_of(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        as_of = _parse_as_of(d.pop("asOf"))


        def _parse_age_seconds(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        age_seconds = _parse_age_seconds(d.pop("ageSeconds"))


        window_hours = d.pop("windowHours")

        headline = d.pop("headline")

        accumulating = []
        _accumulating = d.pop("accumulating")
        for accumulating_item_data in (_accumulating):
            accumulating_item = RadarItem.from_dict(accumulating_item_data)



            accumulating.append(accumulating_item)


        def _parse_next_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_ = _parse_next_(d.pop("next"))


        set_size = d.pop("setSize")

        cached = d.pop("cached")

        smart_money_radar_response = cls(
            chain=chain,
            as_of=as_of,
            age_seconds=age_seconds,
            window_hours=window_hours,
            headline=headline,
            accumulating=accumulating,
            next_=next_,
            set_size=set_size,
            cached=cached,
        )


        smart_money_radar_response.additional_properties = d
        return smart_money_radar_response

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
