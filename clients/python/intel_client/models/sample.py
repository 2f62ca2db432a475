from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Sample")



@_attrs_define
class Sample:
    """ 
        Attributes:
            closed_round_trips (int):
            days_active (float):
            distinct_tokens (int):
            open_positions (int):
            trades (int):
            met (bool): the minimum history for a grade other than unrated is met
     """

    closed_round_trips: int
    days_active: float
    distinct_tokens: int
    open_positions: int
    trades: int
    met: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        closed_round_trips = self.closed_round_trips

        days_active = self.days_active

        distinct_tokens = self.distinct_tokens

        open_positions = self.open_positions

        trades = self.trades

        met = self.met


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "closedRoundTrips": closed_round_trips,
            "daysActive": days_active,
            "distinctTokens": distinct_tokens,
            "openPositions": open_positions,
            "trades": trades,
            "met": met,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        closed_round_trips = d.pop("closedRoundTrips")

        days_active = d.pop("daysActive")

        distinct_tokens = d.pop("distinctTokens")

        open_positions = d.pop("openPositions")

        trades = d.pop("trades")

        met = d.pop("met")

        sample = cls(
            closed_round_trips=closed_round_trips,
            days_active=days_active,
            distinct_tokens=distinct_tokens,
            open_positions=open_positions,
            trades=trades,
            met=met,
        )


        sample.additional_properties = d
        return sample

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
