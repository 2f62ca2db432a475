from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.venue_profit_factor_band import VenueProfitFactorBand
from ..models.venue_return_band import VenueReturnBand
from typing import cast






T = TypeVar("T", bound="VenueWalletResponsePerformance")



@_attrs_define
class VenueWalletResponsePerformance:
    """ 
        Attributes:
            realised_return_pct (float | None):
            return_band (None | VenueReturnBand):
            win_rate_pct (float | None):
            profit_factor (float | None):
            profit_factor_band (None | VenueProfitFactorBand):
            best_trade_share_pct (float | None):
            profitable_weeks_pct (float | None):
     """

    realised_return_pct: float | None
    return_band: None | VenueReturnBand
    win_rate_pct: float | None
    profit_factor: float | None
    profit_factor_band: None | VenueProfitFactorBand
    best_trade_share_pct: float | None
    profitable_weeks_pct: float | None





    def to_dict(self) -> dict[str, Any]:
        realised_return_pct: float | None
        realised_return_pct = self.realised_return_pct

        return_band: None | str
        if isinstance(self.return_band, VenueReturnBand):
            return_band = self.return_band.value
        else:
            return_band = self.return_band

        win_rate_pct: float | None
        win_rate_pct = self.win_rate_pct

        profit_factor: float | None
        profit_factor = self.profit_factor

        profit_factor_band: None | str
        if isinstance(self.profit_factor_band, VenueProfitFactorBand):
            profit_factor_band = self.profit_factor_band.value
        else:
            profit_factor_band = self.profit_factor_band

        best_trade_share_pct: float | None
        best_trade_share_pct = self.best_trade_share_pct

        profitable_weeks_pct: float | None
        profitable_weeks_pct = self.profitable_weeks_pct


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "realisedReturnPct": realised_return_pct,
            "returnBand": return_band,
            "winRatePct": win_rate_pct,
            "profitFactor": profit_factor,
            "profitFactorBand": profit_factor_band,
            "bestTradeSharePct": best_trade_share_pct,
            "profitableWeeksPct": profitable_weeks_pct,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_realised_return_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        realised_return_pct = _parse_realised_return_pct(d.pop("realisedReturnPct"))


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


        def _parse_win_rate_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        win_rate_pct = _parse_win_rate_pct(d.pop("winRatePct"))


        def _parse_profit_factor(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        profit_factor = _parse_profit_factor(d.pop("profitFactor"))


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


        venue_wallet_response_performance = cls(
            realised_return_pct=realised_return_pct,
            return_band=return_band,
            win_rate_pct=win_rate_pct,
            profit_factor=profit_factor,
            profit_factor_band=profit_factor_band,
            best_trade_share_pct=best_trade_share_pct,
            profitable_weeks_pct=profitable_weeks_pct,
        )

        return venue_wallet_response_performance

