from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="VenueWalletResponseSample")



@_attrs_define
class VenueWalletResponseSample:
    """ 
        Attributes:
            fills (int):
            closed_trades (int):
            instruments (int):
            days_active (float):
            open_positions (int):
     """

    fills: int
    closed_trades: int
    instruments: int
    days_active: float
    open_positions: int





    def to_dict(self) -> dict[str, Any]:
        fills = self.fills

        closed_trades = self.closed_trades

        instruments = self.instruments

        days_active = self.days_active

        open_positions = self.open_positions


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "fills": fills,
            "closedTrades": closed_trades,
            "instruments": instruments,
            "daysActive": days_active,
            "openPositions": open_positions,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        fills = d.pop("fills")

        closed_trades = d.pop("closedTrades")

        instruments = d.pop("instruments")

        days_active = d.pop("daysActive")

        open_positions = d.pop("openPositions")

        venue_wallet_response_sample = cls(
            fills=fills,
            closed_trades=closed_trades,
            instruments=instruments,
            days_active=days_active,
            open_positions=open_positions,
        )

        return venue_wallet_response_sample

