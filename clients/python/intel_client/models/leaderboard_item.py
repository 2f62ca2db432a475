from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.edge_band import EdgeBand
from ..models.profit_factor_band import ProfitFactorBand
from ..models.trader_style import TraderStyle
from ..models.verdict import Verdict
from typing import cast






T = TypeVar("T", bound="LeaderboardItem")



@_attrs_define
class LeaderboardItem:
    """ 
        Attributes:
            rank (int):
            wallet (str):
            chain (str):
            grade (Verdict):
            score (int):
            style (TraderStyle):
            edge (EdgeBand):
            win_rate_pct (float | None):
            profit_factor_band (None | ProfitFactorBand):
            round_trips (int):
     """

    rank: int
    wallet: str
    chain: str
    grade: Verdict
    score: int
    style: TraderStyle
    edge: EdgeBand
    win_rate_pct: float | None
    profit_factor_band: None | ProfitFactorBand
    round_trips: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        rank = self.rank

        wallet = self.wallet

        chain = self.chain

        grade = self.grade.value

        score = self.score

        style = self.style.value

        edge = self.edge.value

        win_rate_pct: float | None
        win_rate_pct = self.win_rate_pct

        profit_factor_band: None | str
        if isinstance(self.profit_factor_band, ProfitFactorBand):
            profit_factor_band = self.profit_factor_band.value
        else:
            profit_factor_band = self.profit_factor_band

        round_trips = self.round_trips


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "rank": rank,
            "wallet": wallet,
            "chain": chain,
            "grade": grade,
            "score": score,
            "style": style,
            "edge": edge,
            "winRatePct": win_rate_pct,
            "profitFactorBand": profit_factor_band,
            "roundTrips": round_trips,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rank = d.pop("rank")

        wallet = d.pop("wallet")

        chain = d.pop("chain")

        grade = Verdict(d.pop("grade"))




        score = d.pop("score")

        style = TraderStyle(d.pop("style"))




        edge = EdgeBand(d.pop("edge"))




        def _parse_win_rate_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        win_rate_pct = _parse_win_rate_pct(d.pop("winRatePct"))


        def _parse_profit_factor_band(data: object) -> None | ProfitFactorBand:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                profit_factor_band_type_0 = ProfitFactorBand(data)



                return profit_factor_band_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ProfitFactorBand, data)

        profit_factor_band = _parse_profit_factor_band(d.pop("profitFactorBand"))


        round_trips = d.pop("roundTrips")

        leaderboard_item = cls(
            rank=rank,
            wallet=wallet,
            chain=chain,
            grade=grade,
            score=score,
            style=style,
            edge=edge,
            win_rate_pct=win_rate_pct,
            profit_factor_band=profit_factor_band,
            round_trips=round_trips,
        )


        leaderboard_item.additional_properties = d
        return leaderboard_item

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
