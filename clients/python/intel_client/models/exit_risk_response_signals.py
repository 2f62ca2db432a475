from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.depth_band import DepthBand
from typing import cast






T = TypeVar("T", bound="ExitRiskResponseSignals")



@_attrs_define
class ExitRiskResponseSignals:
    """ 
        Attributes:
            size_usd (float):
            price_impact_pct (float | None):
            liquidity (DepthBand):
            sell_pressure_pct (float):
            whale_supply_pct (float):
            score (float):
     """

    size_usd: float
    price_impact_pct: float | None
    liquidity: DepthBand
    sell_pressure_pct: float
    whale_supply_pct: float
    score: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        size_usd = self.size_usd

        price_impact_pct: float | None
        price_impact_pct = self.price_impact_pct

        liquidity = self.liquidity.value

        sell_pressure_pct = self.sell_pressure_pct

        whale_supply_pct = self.whale_supply_pct

        score = self.score


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "sizeUsd": size_usd,
            "priceImpactPct": price_impact_pct,
            "liquidity": liquidity,
            "sellPressurePct": sell_pressure_pct,
            "whaleSupplyPct": whale_supply_pct,
            "score": score,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        size_usd = d.pop("sizeUsd")

        def _parse_price_impact_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        price_impact_pct = _parse_price_impact_pct(d.pop("priceImpactPct"))


        liquidity = DepthBand(d.pop("liquidity"))




        sell_pressure_pct = d.pop("sellPressurePct")

        whale_supply_pct = d.pop("whaleSupplyPct")

        score = d.pop("score")

        exit_risk_response_signals = cls(
            size_usd=size_usd,
            price_impact_pct=price_impact_pct,
            liquidity=liquidity,
            sell_pressure_pct=sell_pressure_pct,
            whale_supply_pct=whale_supply_pct,
            score=score,
        )


        exit_risk_response_signals.additional_properties = d
        return exit_risk_response_signals

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
