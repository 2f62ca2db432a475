from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.level_band import LevelBand
from typing import cast






T = TypeVar("T", bound="TokenValuationResponseSignals")



@_attrs_define
class TokenValuationResponseSignals:
    """ 
        Attributes:
            turnover (LevelBand):
            turnover_pct (float | None):
            holder_growth_vs_price_pct (float | None):
            distance_from_high_pct (float | None):
            price_change_24_h_pct (float | None):
     """

    turnover: LevelBand
    turnover_pct: float | None
    holder_growth_vs_price_pct: float | None
    distance_from_high_pct: float | None
    price_change_24_h_pct: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        turnover = self.turnover.value

        turnover_pct: float | None
        turnover_pct = self.turnover_pct

        holder_growth_vs_price_pct: float | None
        holder_growth_vs_price_pct = self.holder_growth_vs_price_pct

        distance_from_high_pct: float | None
        distance_from_high_pct = self.distance_from_high_pct

        price_change_24_h_pct: float | None
        price_change_24_h_pct = self.price_change_24_h_pct


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "turnover": turnover,
            "turnoverPct": turnover_pct,
            "holderGrowthVsPricePct": holder_growth_vs_price_pct,
            "distanceFromHighPct": distance_from_high_pct,
            "priceChange24hPct": price_change_24_h_pct,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        turnover = LevelBand(d.pop("turnover"))




        def _parse_turnover_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        turnover_pct = _parse_turnover_pct(d.pop("turnoverPct"))


        def _parse_holder_growth_vs_price_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        holder_growth_vs_price_pct = _parse_holder_growth_vs_price_pct(d.pop("holderGrowthVsPricePct"))


        def _parse_distance_from_high_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        distance_from_high_pct = _parse_distance_from_high_pct(d.pop("distanceFromHighPct"))


        def _parse_price_change_24_h_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        price_change_24_h_pct = _parse_price_change_24_h_pct(d.pop("priceChange24hPct"))


        token_valuation_response_signals = cls(
            turnover=turnover,
            turnover_pct=turnover_pct,
            holder_growth_vs_price_pct=holder_growth_vs_price_pct,
            distance_from_high_pct=distance_from_high_pct,
            price_change_24_h_pct=price_change_24_h_pct,
        )


        token_valuation_response_signals.additional_properties = d
        return token_valuation_response_signals

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
