from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.edge_band import EdgeBand
from typing import cast






T = TypeVar("T", bound="TraderEdgeResponseEdge")



@_attrs_define
class TraderEdgeResponseEdge:
    """ 
        Attributes:
            score (int):
            band (EdgeBand):
            excess_return_pct (float | None):
            forward_excess_pct (float | None):
            round_trip_excess_pct (float | None):
            forward_samples (int):
            round_trip_samples (int):
            horizon_minutes (int):
     """

    score: int
    band: EdgeBand
    excess_return_pct: float | None
    forward_excess_pct: float | None
    round_trip_excess_pct: float | None
    forward_samples: int
    round_trip_samples: int
    horizon_minutes: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        score = self.score

        band = self.band.value

        excess_return_pct: float | None
        excess_return_pct = self.excess_return_pct

        forward_excess_pct: float | None
        forward_excess_pct = self.forward_excess_pct

        round_trip_excess_pct: float | None
        round_trip_excess_pct = self.round_trip_excess_pct

        forward_samples = self.forward_samples

        round_trip_samples = self.round_trip_samples

        horizon_minutes = self.horizon_minutes


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "score": score,
            "band": band,
            "excessReturnPct": excess_return_pct,
            "forwardExcessPct": forward_excess_pct,
            "roundTripExcessPct": round_trip_excess_pct,
            "forwardSamples": forward_samples,
            "roundTripSamples": round_trip_samples,
            "horizonMinutes": horizon_minutes,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        score = d.pop("score")

        band = EdgeBand(d.pop("band"))




        def _parse_excess_return_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        excess_return_pct = _parse_excess_return_pct(d.pop("excessReturnPct"))


        def _parse_forward_excess_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        forward_excess_pct = _parse_forward_excess_pct(d.pop("forwardExcessPct"))


        def _parse_round_trip_excess_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        round_trip_excess_pct = _parse_round_trip_excess_pct(d.pop("roundTripExcessPct"))


        forward_samples = d.pop("forwardSamples")

        round_trip_samples = d.pop("roundTripSamples")

        horizon_minutes = d.pop("horizonMinutes")

        trader_edge_response_edge = cls(
            score=score,
            band=band,
            excess_return_pct=excess_return_pct,
            forward_excess_pct=forward_excess_pct,
            round_trip_excess_pct=round_trip_excess_pct,
            forward_samples=forward_samples,
            round_trip_samples=round_trip_samples,
            horizon_minutes=horizon_minutes,
        )


        trader_edge_response_edge.additional_properties = d
        return trader_edge_response_edge

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
