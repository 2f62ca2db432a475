from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.quality_band import QualityBand
from typing import cast






T = TypeVar("T", bound="WalletPnlQualityResponseConsistency")



@_attrs_define
class WalletPnlQualityResponseConsistency:
    """ 
        Attributes:
            score (int):
            band (QualityBand):
            best_trade_share_pct (float | None):
            profitable_weeks_pct (float | None):
     """

    score: int
    band: QualityBand
    best_trade_share_pct: float | None
    profitable_weeks_pct: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        score = self.score

        band = self.band.value

        best_trade_share_pct: float | None
        best_trade_share_pct = self.best_trade_share_pct

        profitable_weeks_pct: float | None
        profitable_weeks_pct = self.profitable_weeks_pct


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "score": score,
            "band": band,
            "bestTradeSharePct": best_trade_share_pct,
            "profitableWeeksPct": profitable_weeks_pct,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        score = d.pop("score")

        band = QualityBand(d.pop("band"))




        def _parse_best_trade_share_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        best_trade_share_pct = _parse_best_trade_share_pct(d.pop("bestTradeSharePct"))


        def _parse_profitable_weeks_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        profitable_weeks_pct = _parse_profitable_weeks_pct(d.pop("profitableWeeksPct"))


        wallet_pnl_quality_response_consistency = cls(
            score=score,
            band=band,
            best_trade_share_pct=best_trade_share_pct,
            profitable_weeks_pct=profitable_weeks_pct,
        )


        wallet_pnl_quality_response_consistency.additional_properties = d
        return wallet_pnl_quality_response_consistency

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
