from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="StrategyItemSuggestedLimits")



@_attrs_define
class StrategyItemSuggestedLimits:
    """ 
        Attributes:
            max_open_positions (int):
            per_trade_share_pct (float):
            stop_loss_pct (float):
     """

    max_open_positions: int
    per_trade_share_pct: float
    stop_loss_pct: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        max_open_positions = self.max_open_positions

        per_trade_share_pct = self.per_trade_share_pct

        stop_loss_pct = self.stop_loss_pct


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "maxOpenPositions": max_open_positions,
            "perTradeSharePct": per_trade_share_pct,
            "stopLossPct": stop_loss_pct,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        max_open_positions = d.pop("maxOpenPositions")

        per_trade_share_pct = d.pop("perTradeSharePct")

        stop_loss_pct = d.pop("stopLossPct")

        strategy_item_suggested_limits = cls(
            max_open_positions=max_open_positions,
            per_trade_share_pct=per_trade_share_pct,
            stop_loss_pct=stop_loss_pct,
        )


        strategy_item_suggested_limits.additional_properties = d
        return strategy_item_suggested_limits

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
