from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.hold_band import HoldBand
from ..models.return_band import ReturnBand
from ..models.size_band import SizeBand
from ..models.trade_summary_status import TradeSummaryStatus
from typing import cast






T = TypeVar("T", bound="TradeSummary")



@_attrs_define
class TradeSummary:
    """ 
        Attributes:
            token (str):
            chain (str):
            symbol (None | str):
            status (TradeSummaryStatus):
            first_trade_at (str):
            last_trade_at (str):
            buys (int):
            sells (int):
            round_trips (int):
            wins (int):
            losses (int):
            outcome (None | ReturnBand): realised (closed) or unrealised (open) return band
            return_pct (float | None):
            hold (HoldBand | None):
            size_band (SizeBand):
            launch_window_buy (bool):
     """

    token: str
    chain: str
    symbol: None | str
    status: TradeSummaryStatus
    first_trade_at: str
    last_trade_at: str
    buys: int
    sells: int
    round_trips: int
    wins: int
    losses: int
    outcome: None | ReturnBand
    return_pct: float | None
    hold: HoldBand | None
    size_band: SizeBand
    launch_window_buy: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        token = self.token

        chain = self.chain

        symbol: None | str
        symbol = self.symbol

        status = self.status.value

        first_trade_at = self.first_trade_at

        last_trade_at = self.last_trade_at

        buys = self.buys

        sells = self.sells

        round_trips = self.round_trips

        wins = self.wins

        losses = self.losses

        outcome: None | str
        if isinstance(self.outcome, ReturnBand):
            outcome = self.outcome.value
        else:
            outcome = self.outcome

        return_pct: float | None
        return_pct = self.return_pct

        hold: None | str
        if isinstance(self.hold, HoldBand):
            hold = self.hold.value
        else:
            hold = self.hold

        size_band = self.size_band.value

        launch_window_buy = self.launch_window_buy


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "token": token,
            "chain": chain,
            "symbol": symbol,
            "status": status,
            "firstTradeAt": first_trade_at,
            "lastTradeAt": last_trade_at,
            "buys": buys,
            "sells": sells,
            "roundTrips": round_trips,
            "wins": wins,
            "losses": losses,
            "outcome": outcome,
            "returnPct": return_pct,
            "hold": hold,
            "sizeBand": size_band,
            "launchWindowBuy": launch_window_buy,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        token = d.pop("token")

        chain = d.pop("chain")

        def _parse_symbol(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        symbol = _parse_symbol(d.pop("symbol"))


        status = TradeSummaryStatus(d.pop("status"))




        first_trade_at = d.pop("firstTradeAt")

        last_trade_at = d.pop("lastTradeAt")

        buys = d.pop("buys")

        sells = d.pop("sells")

        round_trips = d.pop("roundTrips")

        wins = d.pop("wins")

        losses = d.pop("losses")

        def _parse_outcome(data: object) -> None | ReturnBand:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                outcome_type_0 = ReturnBand(data)



                return outcome_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReturnBand, data)

        outcome = _parse_outcome(d.pop("outcome"))


        def _parse_return_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        return_pct = _parse_return_pct(d.pop("returnPct"))


        def _parse_hold(data: object) -> HoldBand | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                hold_type_0 = HoldBand(data)



                return hold_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HoldBand | None, data)

        hold = _parse_hold(d.pop("hold"))


        size_band = SizeBand(d.pop("sizeBand"))




        launch_window_buy = d.pop("launchWindowBuy")

        trade_summary = cls(
            token=token,
            chain=chain,
            symbol=symbol,
            status=status,
            first_trade_at=first_trade_at,
            last_trade_at=last_trade_at,
            buys=buys,
            sells=sells,
            round_trips=round_trips,
            wins=wins,
            losses=losses,
            outcome=outcome,
            return_pct=return_pct,
            hold=hold,
            size_band=size_band,
            launch_window_buy=launch_window_buy,
        )


        trade_summary.additional_properties = d
        return trade_summary

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
