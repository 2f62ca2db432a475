from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.horizon import Horizon
from typing import cast






T = TypeVar("T", bound="VenueTrackRecordResponseSeparationItem")



@_attrs_define
class VenueTrackRecordResponseSeparationItem:
    """ 
        Attributes:
            horizon (Horizon):
            mirror_worthy_win_pct (float | None):
            avoid_win_pct (float | None):
            spread_pct (float | None):
     """

    horizon: Horizon
    mirror_worthy_win_pct: float | None
    avoid_win_pct: float | None
    spread_pct: float | None





    def to_dict(self) -> dict[str, Any]:
        horizon = self.horizon.value

        mirror_worthy_win_pct: float | None
        mirror_worthy_win_pct = self.mirror_worthy_win_pct

        avoid_win_pct: float | None
        avoid_win_pct = self.avoid_win_pct

        spread_pct: float | None
        spread_pct = self.spread_pct


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "horizon": horizon,
            "mirrorWorthyWinPct": mirror_worthy_win_pct,
            "avoidWinPct": avoid_win_pct,
            "spreadPct": spread_pct,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        horizon = Horizon(d.pop("horizon"))




        def _parse_mirror_worthy_win_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        mirror_worthy_win_pct = _parse_mirror_worthy_win_pct(d.pop("mirrorWorthyWinPct"))


        def _parse_avoid_win_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        avoid_win_pct = _parse_avoid_win_pct(d.pop("avoidWinPct"))


        def _parse_spread_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        spread_pct = _parse_spread_pct(d.pop("spreadPct"))


        venue_track_record_response_separation_item = cls(
            horizon=horizon,
            mirror_worthy_win_pct=mirror_worthy_win_pct,
            avoid_win_pct=avoid_win_pct,
            spread_pct=spread_pct,
        )

        return venue_track_record_response_separation_item

