from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="HorizonStats")



@_attrs_define
class HorizonStats:
    """ 
        Attributes:
            n (int):
            hits (int):
            misses (int):
            pending (int):
            void (int):
            unscored (int):
            hit_rate_pct (float | None): hits / (hits + misses), percent; null with no scored record
     """

    n: int
    hits: int
    misses: int
    pending: int
    void: int
    unscored: int
    hit_rate_pct: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        n = self.n

        hits = self.hits

        misses = self.misses

        pending = self.pending

        void = self.void

        unscored = self.unscored

        hit_rate_pct: float | None
        hit_rate_pct = self.hit_rate_pct


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "n": n,
            "hits": hits,
            "misses": misses,
            "pending": pending,
            "void": void,
            "unscored": unscored,
            "hitRatePct": hit_rate_pct,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        n = d.pop("n")

        hits = d.pop("hits")

        misses = d.pop("misses")

        pending = d.pop("pending")

        void = d.pop("void")

        unscored = d.pop("unscored")

        def _parse_hit_rate_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        hit_rate_pct = _parse_hit_rate_pct(d.pop("hitRatePct"))


        horizon_stats = cls(
            n=n,
            hits=hits,
            misses=misses,
            pending=pending,
            void=void,
            unscored=unscored,
            hit_rate_pct=hit_rate_pct,
        )


        horizon_stats.additional_properties = d
        return horizon_stats

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
