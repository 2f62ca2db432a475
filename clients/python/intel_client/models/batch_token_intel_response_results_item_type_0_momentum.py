from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.momentum_band import MomentumBand
from ..models.trend import Trend
from typing import cast






T = TypeVar("T", bound="BatchTokenIntelResponseResultsItemType0Momentum")



@_attrs_define
class BatchTokenIntelResponseResultsItemType0Momentum:
    """ 
        Attributes:
            band (MomentumBand):
            score (float):
            price_change_1_h_pct (float | None):
            price_change_24_h_pct (float | None):
            volume_trend (Trend):
     """

    band: MomentumBand
    score: float
    price_change_1_h_pct: float | None
    price_change_24_h_pct: float | None
    volume_trend: Trend
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        band = self.band.value

        score = self.score

        price_change_1_h_pct: float | None
        price_change_1_h_pct = self.price_change_1_h_pct

        price_change_24_h_pct: float | None
        price_change_24_h_pct = self.price_change_24_h_pct

        volume_trend = self.volume_trend.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "band": band,
            "score": score,
            "priceChange1hPct": price_change_1_h_pct,
            "priceChange24hPct": price_change_24_h_pct,
            "volumeTrend": volume_trend,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        band = MomentumBand(d.pop("band"))




        score = d.pop("score")

        def _parse_price_change_1_h_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        price_change_1_h_pct = _parse_price_change_1_h_pct(d.pop("priceChange1hPct"))


        def _parse_price_change_24_h_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        price_change_24_h_pct = _parse_price_change_24_h_pct(d.pop("priceChange24hPct"))


        volume_trend = Trend(d.pop("volumeTrend"))




        batch_token_intel_response_results_item_type_0_momentum = cls(
            band=band,
            score=score,
            price_change_1_h_pct=price_change_1_h_pct,
            price_change_24_h_pct=price_change_24_h_pct,
            volume_trend=volume_trend,
        )


        batch_token_intel_response_results_item_type_0_momentum.additional_properties = d
        return batch_token_intel_response_results_item_type_0_momentum

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
