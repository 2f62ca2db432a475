from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.strategy_item import StrategyItem





T = TypeVar("T", bound="CopyStrategiesResponse")



@_attrs_define
class CopyStrategiesResponse:
    """ 
        Attributes:
            chain (str):
            as_of (None | str):
            age_seconds (float | None):
            headline (str): model-written
            strategies (list[StrategyItem]):
     """

    chain: str
    as_of: None | str
    age_seconds: float | None
    headline: str
    strategies: list[StrategyItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.strategy_item import StrategyItem # noqa: PLC0415
        chain = self.chain

        as_of: None | str
        as_of = self.as_of

        age_seconds: float | None
        age_seconds = self.age_seconds

        headline = self.headline

        strategies = []
        for strategies_item_data in self.strategies:
            strategies_item = strategies_item_data.to_dict()
            strategies.append(strategies_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "headline": headline,
            "strategies": strategies,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.strategy_item import StrategyItem # noqa: PLC0415
        d = dict(src_dict)
        chain = d.pop("chain")

        def _parse_as_of(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        as_of = _parse_as_of(d.pop("asOf"))


        def _parse_age_seconds(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        age_seconds = _parse_age_seconds(d.pop("ageSeconds"))


        headline = d.pop("headline")

        strategies = []
        _strategies = d.pop("strategies")
        for strategies_item_data in (_strategies):
            strategies_item = StrategyItem.from_dict(strategies_item_data)



            strategies.append(strategies_item)


        copy_strategies_response = cls(
            chain=chain,
            as_of=as_of,
            age_seconds=age_seconds,
            headline=headline,
            strategies=strategies,
        )


        copy_strategies_response.additional_properties = d
        return copy_strategies_response

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
