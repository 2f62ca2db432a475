from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.trend import Trend
from typing import cast






T = TypeVar("T", bound="TokenHoldersInsightResponseTrend")



@_attrs_define
class TokenHoldersInsightResponseTrend:
    """ 
        Attributes:
            direction (Trend):
            holders (int):
            growth_24_h_pct (float | None):
            new_buyers_pct (float):
     """

    direction: Trend
    holders: int
    growth_24_h_pct: float | None
    new_buyers_pct: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        direction = self.direction.value

        holders = self.holders

        growth_24_h_pct: float | None
        growth_24_h_pct = self.growth_24_h_pct

        new_buyers_pct = self.new_buyers_pct


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "direction": direction,
            "holders": holders,
            "growth24hPct": growth_24_h_pct,
            "newBuyersPct": new_buyers_pct,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        direction = Trend(d.pop("direction"))




        holders = d.pop("holders")

        def _parse_growth_24_h_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        growth_24_h_pct = _parse_growth_24_h_pct(d.pop("growth24hPct"))


        new_buyers_pct = d.pop("newBuyersPct")

        token_holders_insight_response_trend = cls(
            direction=direction,
            holders=holders,
            growth_24_h_pct=growth_24_h_pct,
            new_buyers_pct=new_buyers_pct,
        )


        token_holders_insight_response_trend.additional_properties = d
        return token_holders_insight_response_trend

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
