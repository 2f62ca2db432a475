from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.risk_band import RiskBand






T = TypeVar("T", bound="CopyLimits")



@_attrs_define
class CopyLimits:
    """ 
        Attributes:
            budget_usd (float):
            per_trade_usd (float):
            max_open_positions (int):
            stop_loss_pct (float):
            skip_risk_at_or_above (RiskBand):
     """

    budget_usd: float
    per_trade_usd: float
    max_open_positions: int
    stop_loss_pct: float
    skip_risk_at_or_above: RiskBand
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        budget_usd = self.budget_usd

        per_trade_usd = self.per_trade_usd

        max_open_positions = self.max_open_positions

        stop_loss_pct = self.stop_loss_pct

        skip_risk_at_or_above = self.skip_risk_at_or_above.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "budgetUsd": budget_usd,
            "perTradeUsd": per_trade_usd,
            "maxOpenPositions": max_open_positions,
            "stopLossPct": stop_loss_pct,
            "skipRiskAtOrAbove": skip_risk_at_or_above,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        budget_usd = d.pop("budgetUsd")

        per_trade_usd = d.pop("perTradeUsd")

        max_open_positions = d.pop("maxOpenPositions")

        stop_loss_pct = d.pop("stopLossPct")

        skip_risk_at_or_above = RiskBand(d.pop("skipRiskAtOrAbove"))




        copy_limits = cls(
            budget_usd=budget_usd,
            per_trade_usd=per_trade_usd,
            max_open_positions=max_open_positions,
            stop_loss_pct=stop_loss_pct,
            skip_risk_at_or_above=skip_risk_at_or_above,
        )


        copy_limits.additional_properties = d
        return copy_limits

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
