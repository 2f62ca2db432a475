from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.risk_band import RiskBand






T = TypeVar("T", bound="MarketRegimeResponseSignals")



@_attrs_define
class MarketRegimeResponseSignals:
    """ 
        Attributes:
            breadth_pct (float): share of active tokens with rising momentum, percent
            volatility (RiskBand):
            volume_to_new_pct (float): share of 24h volume going to tokens younger than 72 hours, percent
            risky_tokens_pct (float): share of active tokens with high or extreme risk, percent
            tokens (int):
     """

    breadth_pct: float
    volatility: RiskBand
    volume_to_new_pct: float
    risky_tokens_pct: float
    tokens: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        breadth_pct = self.breadth_pct

        volatility = self.volatility.value

        volume_to_new_pct = self.volume_to_new_pct

        risky_tokens_pct = self.risky_tokens_pct

        tokens = self.tokens


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "breadthPct": breadth_pct,
            "volatility": volatility,
            "volumeToNewPct": volume_to_new_pct,
            "riskyTokensPct": risky_tokens_pct,
            "tokens": tokens,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        breadth_pct = d.pop("breadthPct")

        volatility = RiskBand(d.pop("volatility"))




        volume_to_new_pct = d.pop("volumeToNewPct")

        risky_tokens_pct = d.pop("riskyTokensPct")

        tokens = d.pop("tokens")

        market_regime_response_signals = cls(
            breadth_pct=breadth_pct,
            volatility=volatility,
            volume_to_new_pct=volume_to_new_pct,
            risky_tokens_pct=risky_tokens_pct,
            tokens=tokens,
        )


        market_regime_response_signals.additional_properties = d
        return market_regime_response_signals

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
