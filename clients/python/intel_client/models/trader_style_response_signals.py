from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="TraderStyleResponseSignals")



@_attrs_define
class TraderStyleResponseSignals:
    """ 
        Attributes:
            trades_per_day (float):
            launch_window_buys (int):
            same_block_round_trips (int):
            copyable_hold_pct (float | None):
     """

    trades_per_day: float
    launch_window_buys: int
    same_block_round_trips: int
    copyable_hold_pct: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        trades_per_day = self.trades_per_day

        launch_window_buys = self.launch_window_buys

        same_block_round_trips = self.same_block_round_trips

        copyable_hold_pct: float | None
        copyable_hold_pct = self.copyable_hold_pct


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "tradesPerDay": trades_per_day,
            "launchWindowBuys": launch_window_buys,
            "sameBlockRoundTrips": same_block_round_trips,
            "copyableHoldPct": copyable_hold_pct,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        trades_per_day = d.pop("tradesPerDay")

        launch_window_buys = d.pop("launchWindowBuys")

        same_block_round_trips = d.pop("sameBlockRoundTrips")

        def _parse_copyable_hold_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        copyable_hold_pct = _parse_copyable_hold_pct(d.pop("copyableHoldPct"))


        trader_style_response_signals = cls(
            trades_per_day=trades_per_day,
            launch_window_buys=launch_window_buys,
            same_block_round_trips=same_block_round_trips,
            copyable_hold_pct=copyable_hold_pct,
        )


        trader_style_response_signals.additional_properties = d
        return trader_style_response_signals

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
