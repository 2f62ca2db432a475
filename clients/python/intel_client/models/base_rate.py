from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="BaseRate")



@_attrs_define
class BaseRate:
    """ what the hit rate is to be read against: the same rule applied to every subject recorded

        Attributes:
            n (int): subjects recorded (whatever was served) whose outcome was measured at this horizon
            hit_rate_pct (float | None): the hit rate that serving this value for every one of them would have scored,
                percent
            median_return_pct (float | None): their median forward return, percent
            value_median_return_pct (float | None): the median forward return of the subjects served this value, percent
     """

    n: int
    hit_rate_pct: float | None
    median_return_pct: float | None
    value_median_return_pct: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        n = self.n

        hit_rate_pct: float | None
        hit_rate_pct = self.hit_rate_pct

        median_return_pct: float | None
        median_return_pct = self.median_return_pct

        value_median_return_pct: float | None
        value_median_return_pct = self.value_median_return_pct


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "n": n,
            "hitRatePct": hit_rate_pct,
            "medianReturnPct": median_return_pct,
            "valueMedianReturnPct": value_median_return_pct,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        n = d.pop("n")

        def _parse_hit_rate_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        hit_rate_pct = _parse_hit_rate_pct(d.pop("hitRatePct"))


        def _parse_median_return_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        median_return_pct = _parse_median_return_pct(d.pop("medianReturnPct"))


        def _parse_value_median_return_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        value_median_return_pct = _parse_value_median_return_pct(d.pop("valueMedianReturnPct"))


        base_rate = cls(
            n=n,
            hit_rate_pct=hit_rate_pct,
            median_return_pct=median_return_pct,
            value_median_return_pct=value_median_return_pct,
        )


        base_rate.additional_properties = d
        return base_rate

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
