from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.risk_band import RiskBand
from ..models.whale_shape import WhaleShape






T = TypeVar("T", bound="TokenHoldersInsightResponseWhaleShape")



@_attrs_define
class TokenHoldersInsightResponseWhaleShape:
    """ 
        Attributes:
            shape (WhaleShape):
            top_10_share_pct (float):
            largest_share_pct (float):
            concentration (RiskBand):
     """

    shape: WhaleShape
    top_10_share_pct: float
    largest_share_pct: float
    concentration: RiskBand
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        shape = self.shape.value

        top_10_share_pct = self.top_10_share_pct

        largest_share_pct = self.largest_share_pct

        concentration = self.concentration.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "shape": shape,
            "top10SharePct": top_10_share_pct,
            "largestSharePct": largest_share_pct,
            "concentration": concentration,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        shape = WhaleShape(d.pop("shape"))




        top_10_share_pct = d.pop("top10SharePct")

        largest_share_pct = d.pop("largestSharePct")

        concentration = RiskBand(d.pop("concentration"))




        token_holders_insight_response_whale_shape = cls(
            shape=shape,
            top_10_share_pct=top_10_share_pct,
            largest_share_pct=largest_share_pct,
            concentration=concentration,
        )


        token_holders_insight_response_whale_shape.additional_properties = d
        return token_holders_insight_response_whale_shape

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
