from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.risk_band import RiskBand
from ..models.trader_style import TraderStyle
from typing import cast

if TYPE_CHECKING:
  from ..models.strategy_item_suggested_limits import StrategyItemSuggestedLimits
  from ..models.strategy_item_top_leaders_item import StrategyItemTopLeadersItem





T = TypeVar("T", bound="StrategyItem")



@_attrs_define
class StrategyItem:
    """ 
        Attributes:
            id (str):
            name (str):
            style (TraderStyle):
            description (str):
            risk (RiskBand):
            leaders (int): mirror-worthy leaders of this style
            candidates (int): leaders graded watch of this style
            top_leaders (list[StrategyItemTopLeadersItem]):
            suggested_limits (StrategyItemSuggestedLimits):
     """

    id: str
    name: str
    style: TraderStyle
    description: str
    risk: RiskBand
    leaders: int
    candidates: int
    top_leaders: list[StrategyItemTopLeadersItem]
    suggested_limits: StrategyItemSuggestedLimits
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.strategy_item_suggested_limits import StrategyItemSuggestedLimits # noqa: PLC0415
        from ..models.strategy_item_top_leaders_item import StrategyItemTopLeadersItem # noqa: PLC0415
        id = self.id

        name = self.name

        style = self.style.value

        description = self.description

        risk = self.risk.value

        leaders = self.leaders

        candidates = self.candidates

        top_leaders = []
        for top_leaders_item_data in self.top_leaders:
            top_leaders_item = top_leaders_item_data.to_dict()
            top_leaders.append(top_leaders_item)



        suggested_limits = self.suggested_limits.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "name": name,
            "style": style,
            "description": description,
            "risk": risk,
            "leaders": leaders,
            "candidates": candidates,
            "topLeaders": top_leaders,
            "suggestedLimits": suggested_limits,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.strategy_item_suggested_limits import StrategyItemSuggestedLimits # noqa: PLC0415
        from ..models.strategy_item_top_leaders_item import StrategyItemTopLeadersItem # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        style = TraderStyle(d.pop("style"))




        description = d.pop("description")

        risk = RiskBand(d.pop("risk"))




        leaders = d.pop("leaders")

        candidates = d.pop("candidates")

        top_leaders = []
        _top_leaders = d.pop("topLeaders")
        for top_leaders_item_data in (_top_leaders):
            top_leaders_item = StrategyItemTopLeadersItem.from_dict(top_leaders_item_data)



            top_leaders.append(top_leaders_item)


        suggested_limits = StrategyItemSuggestedLimits.from_dict(d.pop("suggestedLimits"))




        strategy_item = cls(
            id=id,
            name=name,
            style=style,
            description=description,
            risk=risk,
            leaders=leaders,
            candidates=candidates,
            top_leaders=top_leaders,
            suggested_limits=suggested_limits,
        )


        strategy_item.additional_properties = d
        return strategy_item

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
