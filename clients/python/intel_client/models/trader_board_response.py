from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.leaderboard_item import LeaderboardItem
  from ..models.trader_board_response_grades import TraderBoardResponseGrades
  from ..models.trader_board_response_holding_item import TraderBoardResponseHoldingItem
  from ..models.trader_board_response_styles import TraderBoardResponseStyles





T = TypeVar("T", bound="TraderBoardResponse")



@_attrs_define
class TraderBoardResponse:
    """ 
        Attributes:
            chain (str):
            as_of (None | str):
            age_seconds (float | None):
            headline (str): model-written
            grades (TraderBoardResponseGrades):
            styles (TraderBoardResponseStyles):
            top (list[LeaderboardItem]):
            holding (list[TraderBoardResponseHoldingItem]):
     """

    chain: str
    as_of: None | str
    age_seconds: float | None
    headline: str
    grades: TraderBoardResponseGrades
    styles: TraderBoardResponseStyles
    top: list[LeaderboardItem]
    holding: list[TraderBoardResponseHoldingItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.leaderboard_item import LeaderboardItem # noqa: PLC0415
        from ..models.trader_board_response_grades import TraderBoardResponseGrades # noqa: PLC0415
        from ..models.trader_board_response_holding_item import TraderBoardResponseHoldingItem # noqa: PLC0415
        from ..models.trader_board_response_styles import TraderBoardResponseStyles # noqa: PLC0415
        chain = self.chain

        as_of: None | str
        as_of = self.as_of

        age_seconds: float | None
        age_seconds = self.age_seconds

        headline = self.headline

        grades = self.grades.to_dict()

        styles = self.styles.to_dict()

        top = []
        for top_item_data in self.top:
            top_item = top_item_data.to_dict()
            top.append(top_item)



        holding = []
        for holding_item_data in self.holding:
            holding_item = holding_item_data.to_dict()
            holding.append(holding_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "headline": headline,
            "grades": grades,
            "styles": styles,
            "top": top,
            "holding": holding,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.leaderboard_item import LeaderboardItem # noqa: PLC0415
        from ..models.trader_board_response_grades import TraderBoardResponseGrades # noqa: PLC0415
        from ..models.trader_board_response_holding_item import TraderBoardResponseHoldingItem # noqa: PLC0415
        from ..models.trader_board_response_styles import TraderBoardResponseStyles # noqa: PLC0415
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

        grades = TraderBoardResponseGrades.from_dict(d.pop("grades"))




        styles = TraderBoardResponseStyles.from_dict(d.pop("styles"))




        top = []
        _top = d.pop("top")
        for top_item_data in (_top):
            top_item = LeaderboardItem.from_dict(top_item_data)



            top.append(top_item)


        holding = []
        _holding = d.pop("holding")
        for holding_item_data in (_holding):
            holding_item = TraderBoardResponseHoldingItem.from_dict(holding_item_data)



            holding.append(holding_item)


        trader_board_response = cls(
            chain=chain,
            as_of=as_of,
            age_seconds=age_seconds,
            headline=headline,
            grades=grades,
            styles=styles,
            top=top,
            holding=holding,
        )


        trader_board_response.additional_properties = d
        return trader_board_response

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
