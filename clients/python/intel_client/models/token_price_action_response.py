from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.resolution import Resolution
from ..models.risk_band import RiskBand
from ..models.token_price_action_response_breakout import TokenPriceActionResponseBreakout
from ..models.token_price_action_response_structure import TokenPriceActionResponseStructure
from ..models.token_price_action_response_trend import TokenPriceActionResponseTrend
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="TokenPriceActionResponse")



@_attrs_define
class TokenPriceActionResponse:
    """ 
        Attributes:
            chain (str):
            token (str):
            symbol (None | str):
            as_of (str): ISO time of the last event folded into the snapshot
            age_seconds (float): seconds between asOf and the time the response was served
            hours (float): the window analysed: the first of the engine windows at or above the hours asked for
            resolution (Resolution):
            bars (int):
            trend (TokenPriceActionResponseTrend):
            structure (TokenPriceActionResponseStructure):
            breakout (TokenPriceActionResponseBreakout):
            volatility (RiskBand):
            distance_from_high (float | None):
            price_momentum (float):
            summary (str):
            requested_hours (float | Unset): the hours asked for
     """

    chain: str
    token: str
    symbol: None | str
    as_of: str
    age_seconds: float
    hours: float
    resolution: Resolution
    bars: int
    trend: TokenPriceActionResponseTrend
    structure: TokenPriceActionResponseStructure
    breakout: TokenPriceActionResponseBreakout
    volatility: RiskBand
    distance_from_high: float | None
    price_momentum: float
    summary: str
    requested_hours: float | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        chain = self.chain

        token = self.token

        symbol: None | str
        symbol = self.symbol

        as_of = self.as_of

        age_seconds = self.age_seconds

        hours = self.hours

        resolution = self.resolution.value

        bars = self.bars

        trend = self.trend.value

        structure = self.structure.value

        breakout = self.breakout.value

        volatility = self.volatility.value

        distance_from_high: float | None
        distance_from_high = self.distance_from_high

        price_momentum = self.price_momentum

        summary = self.summary

        requested_hours = self.requested_hours


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "token": token,
            "symbol": symbol,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "hours": hours,
            "resolution": resolution,
            "bars": bars,
            "trend": trend,
            "structure": structure,
            "breakout": breakout,
            "volatility": volatility,
            "distanceFromHigh": distance_from_high,
            "priceMomentum": price_momentum,
            "summary": summary,
        })
        if requested_hours is not UNSET:
            field_dict["requestedHours"] = requested_hours

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        chain = d.pop("chain")

        token = d.pop("token")

        def _parse_symbol(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        symbol = _parse_symbol(d.pop("symbol"))


        as_of = d.pop("asOf")

        age_seconds = d.pop("ageSeconds")

        hours = d.pop("hours")

        resolution = Resolution(d.pop("resolution"))




        bars = d.pop("bars")

        trend = TokenPriceActionResponseTrend(d.pop("trend"))




        structure = TokenPriceActionResponseStructure(d.pop("structure"))




        breakout = TokenPriceActionResponseBreakout(d.pop("breakout"))




        volatility = RiskBand(d.pop("volatility"))




        def _parse_distance_from_high(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        distance_from_high = _parse_distance_from_high(d.pop("distanceFromHigh"))


        price_momentum = d.pop("priceMomentum")

        summary = d.pop("summary")

        requested_hours = d.pop("requestedHours", UNSET)

        token_price_action_response = cls(
            chain=chain,
            token=token,
            symbol=symbol,
            as_of=as_of,
            age_seconds=age_seconds,
            hours=hours,
            resolution=resolution,
            bars=bars,
            trend=trend,
            structure=structure,
            breakout=breakout,
            volatility=volatility,
            distance_from_high=distance_from_high,
            price_momentum=price_momentum,
            summary=summary,
            requested_hours=requested_hours,
        )


        token_price_action_response.additional_properties = d
        return token_price_action_response

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
