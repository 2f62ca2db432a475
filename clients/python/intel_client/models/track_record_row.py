from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.horizon import Horizon
from ..models.verdict import Verdict
from typing import cast






T = TypeVar("T", bound="TrackRecordRow")



@_attrs_define
class TrackRecordRow:
    """ 
        Attributes:
            grade (Verdict):
            horizon (Horizon):
            sample (int):
            resolved (int):
            hits (int):
            misses (int):
            inactive (int):
            pending (int):
            hit_rate_pct (float | None):
            avg_forward_return_pct (float | None):
            accounts (int):
     """

    grade: Verdict
    horizon: Horizon
    sample: int
    resolved: int
    hits: int
    misses: int
    inactive: int
    pending: int
    hit_rate_pct: float | None
    avg_forward_return_pct: float | None
    accounts: int





    def to_dict(self) -> dict[str, Any]:
        grade = self.grade.value

        horizon = self.horizon.value

        sample = self.sample

        resolved = self.resolved

        hits = self.hits

        misses = self.misses

        inactive = self.inactive

        pending = self.pending

        hit_rate_pct: float | None
        hit_rate_pct = self.hit_rate_pct

        avg_forward_return_pct: float | None
        avg_forward_return_pct = self.avg_forward_return_pct

        accounts = self.accounts


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "grade": grade,
            "horizon": horizon,
            "sample": sample,
            "resolved": resolved,
            "hits": hits,
            "misses": misses,
            "inactive": inactive,
            "pending": pending,
            "hitRatePct": hit_rate_pct,
            "avgForwardReturnPct": avg_forward_return_pct,
            "accounts": accounts,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        grade = Verdict(d.pop("grade"))




        horizon = Horizon(d.pop("horizon"))




        sample = d.pop("sample")

        resolved = d.pop("resolved")

        hits = d.pop("hits")

        misses = d.pop("misses")

        inactive = d.pop("inactive")

        pending = d.pop("pending")

        def _parse_hit_rate_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        hit_rate_pct = _parse_hit_rate_pct(d.pop("hitRatePct"))


        def _parse_avg_forward_return_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        avg_forward_return_pct = _parse_avg_forward_return_pct(d.pop("avgForwardReturnPct"))


        accounts = d.pop("accounts")

        track_record_row = cls(
            grade=grade,
            horizon=horizon,
            sample=sample,
            resolved=resolved,
            hits=hits,
            misses=misses,
            inactive=inactive,
            pending=pending,
            hit_rate_pct=hit_rate_pct,
            avg_forward_return_pct=avg_forward_return_pct,
            accounts=accounts,
        )

        return track_record_row

