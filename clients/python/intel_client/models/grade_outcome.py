from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.horizon import Horizon
from ..models.verdict import Verdict






T = TypeVar("T", bound="GradeOutcome")



@_attrs_define
class GradeOutcome:
    """ 
        Attributes:
            grade (Verdict):
            horizon (Horizon):
            graded (int):
            hits (int):
            misses (int):
            inactive (int):
            pending (int):
            forward_return_pct_sum (float):
     """

    grade: Verdict
    horizon: Horizon
    graded: int
    hits: int
    misses: int
    inactive: int
    pending: int
    forward_return_pct_sum: float





    def to_dict(self) -> dict[str, Any]:
        grade = self.grade.value

        horizon = self.horizon.value

        graded = self.graded

        hits = self.hits

        misses = self.misses

        inactive = self.inactive

        pending = self.pending

        forward_return_pct_sum = self.forward_return_pct_sum


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "grade": grade,
            "horizon": horizon,
            "graded": graded,
            "hits": hits,
            "misses": misses,
            "inactive": inactive,
            "pending": pending,
            "forwardReturnPctSum": forward_return_pct_sum,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        grade = Verdict(d.pop("grade"))




        horizon = Horizon(d.pop("horizon"))




        graded = d.pop("graded")

        hits = d.pop("hits")

        misses = d.pop("misses")

        inactive = d.pop("inactive")

        pending = d.pop("pending")

        forward_return_pct_sum = d.pop("forwardReturnPctSum")

        grade_outcome = cls(
            grade=grade,
            horizon=horizon,
            graded=graded,
            hits=hits,
            misses=misses,
            inactive=inactive,
            pending=pending,
            forward_return_pct_sum=forward_return_pct_sum,
        )

        return grade_outcome

