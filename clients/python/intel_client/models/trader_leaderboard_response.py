from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.leaderboard_item import LeaderboardItem





T = TypeVar("T", bound="TraderLeaderboardResponse")



@_attrs_define
class TraderLeaderboardResponse:
    """ 
        Attributes:
            chain (str):
            as_of (None | str):
            age_seconds (float | None):
            leaders (list[LeaderboardItem]):
            next_ (None | str): pass as `cursor` for the next page; null on the last page. Opaque: the position after the
                last item, stable when the list changes between calls
            rated (int): wallets with enough history to be ranked
     """

    chain: str
    as_of: None | str
    age_seconds: float | None
    leaders: list[LeaderboardItem]
    next_: None | str
    rated: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.leaderboard_item import LeaderboardItem # noqa: PLC0415
        chain = self.chain

        as_of: None | str
        as_of = self.as_of

        age_seconds: float | None
        age_seconds = self.age_seconds

        leaders = []
        for leaders_item_data in self.leaders:
            leaders_item = leaders_item_data.to_dict()
            leaders.append(leaders_item)



        next_: None | str
        next_ = self.next_

        rated = self.rated


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "leaders": leaders,
            "next": next_,
            "rated": rated,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.leaderboard_item import LeaderboardItem # noqa: PLC0415
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


        leaders = []
        _leaders = d.pop("leaders")
        for leaders_item_data in (_leaders):
            leaders_item = LeaderboardItem.from_dict(leaders_item_data)



            leaders.append(leaders_item)


        def _parse_next_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_ = _parse_next_(d.pop("next"))


        rated = d.pop("rated")

        trader_leaderboard_response = cls(
            chain=chain,
            as_of=as_of,
            age_seconds=age_seconds,
            leaders=leaders,
            next_=next_,
            rated=rated,
        )


        trader_leaderboard_response.additional_properties = d
        return trader_leaderboard_response

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
