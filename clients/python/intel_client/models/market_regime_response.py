from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.market_regime import MarketRegime
from typing import cast

if TYPE_CHECKING:
  from ..models.market_regime_response_signals import MarketRegimeResponseSignals





T = TypeVar("T", bound="MarketRegimeResponse")



@_attrs_define
class MarketRegimeResponse:
    """ 
        Attributes:
            chain (str):
            as_of (None | str):
            age_seconds (float | None):
            regime (MarketRegime):
            score (float):
            signals (MarketRegimeResponseSignals):
            summary (str):
     """

    chain: str
    as_of: None | str
    age_seconds: float | None
    regime: MarketRegime
    score: float
    signals: MarketRegimeResponseSignals
    summary: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.market_regime_response_signals import MarketRegimeResponseSignals # noqa: PLC0415
        chain = self.chain

        as_of: None | str
        as_of = self.as_of

        age_seconds: float | None
        age_seconds = self.age_seconds

        regime = self.regime.value

        score = self.score

        signals = self.signals.to_dict()

        summary = self.summary


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "regime": regime,
            "score": score,
            "signals": signals,
            "summary": summary,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.market_regime_response_signals import MarketRegimeResponseSignals # noqa: PLC0415
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


        regime = MarketRegime(d.pop("regime"))




        score = d.pop("score")

        signals = MarketRegimeResponseSignals.from_dict(d.pop("signals"))




        summary = d.pop("summary")

        market_regime_response = cls(
            chain=chain,
            as_of=as_of,
            age_seconds=age_seconds,
            regime=regime,
            score=score,
            signals=signals,
            summary=summary,
        )


        market_regime_response.additional_properties = d
        return market_regime_response

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
