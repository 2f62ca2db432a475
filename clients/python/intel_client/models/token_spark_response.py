from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="TokenSparkResponse")



@_attrs_define
class TokenSparkResponse:
    """ 
        Attributes:
            chain (str):
            token (str):
            symbol (None | str):
            as_of (str): ISO time of the last event folded into the snapshot
            age_seconds (float): seconds between asOf and the time the response was served
            available (bool):
            hours (int):
            points (int):
            change_pct (float | None):
            series (list[float]):
     """

    chain: str
    token: str
    symbol: None | str
    as_of: str
    age_seconds: float
    available: bool
    hours: int
    points: int
    change_pct: float | None
    series: list[float]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        chain = self.chain

        token = self.token

        symbol: None | str
        symbol = self.symbol

        as_of = self.as_of

        age_seconds = self.age_seconds

        available = self.available

        hours = self.hours

        points = self.points

        change_pct: float | None
        change_pct = self.change_pct

        series = self.series




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "token": token,
            "symbol": symbol,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "available": available,
            "hours": hours,
            "points": points,
            "changePct": change_pct,
            "series": series,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        chain = d.pop("chain")

        token = d.pop("token")

        def _parse_symbol(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        symbol = _parse_symbol(d.pop("symbol"))


        as_of = d.pop("asOf")

        age_seconds = d.pop("ageSeconds")

        available = d.pop("available")

        hours = d.pop("hours")

        points = d.pop("points")

        def _parse_change_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        change_pct = _parse_change_pct(d.pop("changePct"))


        series = cast(list[float], d.pop("series"))


        token_spark_response = cls(
            chain=chain,
            token=token,
            symbol=symbol,
            as_of=as_of,
            age_seconds=age_seconds,
            available=available,
            hours=hours,
            points=points,
            change_pct=change_pct,
            series=series,
        )


        token_spark_response.additional_properties = d
        return token_spark_response

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
