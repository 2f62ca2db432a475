from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.spot_leaders_response_venue import SpotLeadersResponseVenue
from typing import cast

if TYPE_CHECKING:
  from ..models.spot_leader_item import SpotLeaderItem





T = TypeVar("T", bound="SpotLeadersResponse")



@_attrs_define
class SpotLeadersResponse:
    """ 
        Attributes:
            chain (str):
            as_of (None | str):
            age_seconds (float | None):
            venue (SpotLeadersResponseVenue):
            leaders (list[SpotLeaderItem]):
            next_ (None | str): pass as `cursor` for the next page; null on the last page. Opaque: the position after the
                last item, stable when the list changes between calls
     """

    chain: str
    as_of: None | str
    age_seconds: float | None
    venue: SpotLeadersResponseVenue
    leaders: list[SpotLeaderItem]
    next_: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.spot_leader_item import SpotLeaderItem # noqa: PLC0415
        chain = self.chain

        as_of: None | str
        as_of = self.as_of

        age_seconds: float | None
        age_seconds = self.age_seconds

        venue = self.venue.value

        leaders = []
        for leaders_item_data in self.leaders:
            leaders_item = leaders_item_data.to_dict()
            leaders.append(leaders_item)



        next_: None | str
        next_ = self.next_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "venue": venue,
            "leaders": leaders,
            "next": next_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.spot_leader_item import SpotLeaderItem # noqa: PLC0415
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


        venue = SpotLeadersResponseVenue(d.pop("venue"))




        leaders = []
        _leaders = d.pop("leaders")
        for leaders_item_data in (_leaders):
            leaders_item = SpotLeaderItem.from_dict(leaders_item_data)



            leaders.append(leaders_item)


        def _parse_next_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_ = _parse_next_(d.pop("next"))


        spot_leaders_response = cls(
            chain=chain,
            as_of=as_of,
            age_seconds=age_seconds,
            venue=venue,
            leaders=leaders,
            next_=next_,
        )


        spot_leaders_response.additional_properties = d
        return spot_leaders_response

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
