from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.venue_hold_band import VenueHoldBand
from ..models.venue_profit_factor_band import VenueProfitFactorBand
from ..models.venue_return_band import VenueReturnBand
from ..models.venue_size_band import VenueSizeBand
from ..models.venue_style import VenueStyle
from ..models.verdict import Verdict
from typing import cast






T = TypeVar("T", bound="VenueLeader")



@_attrs_define
class VenueLeader:
    """ 
        Attributes:
            rank (int):
            venue (str):
            wallet (str):
            grade (Verdict):
            score (int):
            style (None | VenueStyle):
            win_rate_pct (float | None):
            profit_factor_band (None | VenueProfitFactorBand):
            return_band (None | VenueReturnBand):
            realised_return_pct (float | None):
            closed_trades (int):
            hold_band (None | VenueHoldBand):
            size_band (None | VenueSizeBand):
     """

    rank: int
    venue: str
    wallet: str
    grade: Verdict
    score: int
    style: None | VenueStyle
    win_rate_pct: float | None
    profit_factor_band: None | VenueProfitFactorBand
    return_band: None | VenueReturnBand
    realised_return_pct: float | None
    closed_trades: int
    hold_band: None | VenueHoldBand
    size_band: None | VenueSizeBand





    def to_dict(self) -> dict[str, Any]:
        rank = self.rank

        venue = self.venue

        wallet = self.wallet

        grade = self.grade.value

        score = self.score

        style: None | str
        if isinstance(self.style, VenueStyle):
            style = self.style.value
        else:
            style = self.style

        win_rate_pct: float | None
        win_rate_pct = self.win_rate_pct

        profit_factor_band: None | str
        if isinstance(self.profit_factor_band, VenueProfitFactorBand):
            profit_factor_band = self.profit_factor_band.value
        else:
            profit_factor_band = self.profit_factor_band

        return_band: None | str
        if isinstance(self.return_band, VenueReturnBand):
            return_band = self.return_band.value
        else:
            return_band = self.return_band

        realised_return_pct: float | None
        realised_return_pct = self.realised_return_pct

        closed_trades = self.closed_trades

        hold_band: None | str
        if isinstance(self.hold_band, VenueHoldBand):
            hold_band = self.hold_band.value
        else:
            hold_band = self.hold_band

        size_band: None | str
        if isinstance(self.size_band, VenueSizeBand):
            size_band = self.size_band.value
        else:
            size_band = self.size_band


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "rank": rank,
            "venue": venue,
            "wallet": wallet,
            "grade": grade,
            "score": score,
            "style": style,
            "winRatePct": win_rate_pct,
            "profitFactorBand": profit_factor_band,
            "returnBand": return_band,
            "realisedReturnPct": realised_return_pct,
            "closedTrades": closed_trades,
            "holdBand": hold_band,
            "sizeBand": size_band,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rank = d.pop("rank")

        venue = d.pop("venue")

        wallet = d.pop("wallet")

        grade = Verdict(d.pop("grade"))




        score = d.pop("score")

        def _parse_style(data: object) -> None | VenueStyle:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                style_type_0 = VenueStyle(data)



                return style_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | VenueStyle, data)

        style = _parse_style(d.pop("style"))


        def _parse_win_rate_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        win_rate_pct = _parse_win_rate_pct(d.pop("winRatePct"))


        def _parse_profit_factor_band(data: object) -> None | VenueProfitFactorBand:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                profit_factor_band_type_0 = VenueProfitFactorBand(data)



                return profit_factor_band_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | VenueProfitFactorBand, data)

        profit_factor_band = _parse_profit_factor_band(d.pop("profitFactorBand"))


        def _parse_return_band(data: object) -> None | VenueReturnBand:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                return_band_type_0 = VenueReturnBand(data)



                return return_band_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | VenueReturnBand, data)

        return_band = _parse_return_band(d.pop("returnBand"))


        def _parse_realised_return_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        realised_return_pct = _parse_realised_return_pct(d.pop("realisedReturnPct"))


        closed_trades = d.pop("closedTrades")

        def _parse_hold_band(data: object) -> None | VenueHoldBand:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                hold_band_type_0 = VenueHoldBand(data)



                return hold_band_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | VenueHoldBand, data)

        hold_band = _parse_hold_band(d.pop("holdBand"))


        def _parse_size_band(data: object) -> None | VenueSizeBand:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                size_band_type_0 = VenueSizeBand(data)



                return size_band_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | VenueSizeBand, data)

        size_band = _parse_size_band(d.pop("sizeBand"))


        venue_leader = cls(
            rank=rank,
            venue=venue,
            wallet=wallet,
            grade=grade,
            score=score,
            style=style,
            win_rate_pct=win_rate_pct,
            profit_factor_band=profit_factor_band,
            return_band=return_band,
            realised_return_pct=realised_return_pct,
            closed_trades=closed_trades,
            hold_band=hold_band,
            size_band=size_band,
        )

        return venue_leader

