from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.venue_leader import VenueLeader
  from ..models.venue_leaders_response_graded import VenueLeadersResponseGraded





T = TypeVar("T", bound="VenueLeadersResponse")



@_attrs_define
class VenueLeadersResponse:
    """ 
        Attributes:
            venue (str):
            headline (str):
            leaders (list[VenueLeader]):
            next_ (None | str): pass as `cursor` for the next page; null on the last page. Opaque: the position after the
                last item, stable when the list changes between calls
            graded (VenueLeadersResponseGraded):
            as_of (None | str): ISO time of the last event folded into the data behind this response
            age_seconds (float | None): seconds between asOf and the time of the response
     """

    venue: str
    headline: str
    leaders: list[VenueLeader]
    next_: None | str
    graded: VenueLeadersResponseGraded
    as_of: None | str
    age_seconds: float | None





    def to_dict(self) -> dict[str, Any]:
        from ..models.venue_leader import VenueLeader # noqa: PLC0415
        from ..models.venue_leaders_response_graded import VenueLeadersResponseGraded # noqa: PLC0415
        venue = self.venue

        headline = self.headline

        leaders = []
        for leaders_item_data in self.leaders:
            leaders_item = leaders_item_data.to_dict()
            leaders.append(leaders_item)



        next_: None | str
        next_ = self.next_

        graded = self.graded.to_dict()

        as_of: None | str
        as_of = self.as_of

        age_seconds: float | None
        age_seconds = self.age_seconds


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "venue": venue,
            "headline": headline,
            "leaders": leaders,
            "next": next_,
            "graded": graded,
            "asOf": as_of,
            "ageSeconds": age_seconds,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.venue_leader import VenueLeader # noqa: PLC0415
        from ..models.venue_leaders_response_graded import VenueLeadersResponseGraded # noqa: PLC0415
        d = dict(src_dict)
        venue = d.pop("venue")

        headline = d.pop("headline")

        leaders = []
        _leaders = d.pop("leaders")
        for leaders_item_data in (_leaders):
            leaders_item = VenueLeader.from_dict(leaders_item_data)



            leaders.append(leaders_item)


        def _parse_next_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_ = _parse_next_(d.pop("next"))


        graded = VenueLeadersResponseGraded.from_dict(d.pop("graded"))




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


        venue_leaders_response = cls(
            venue=venue,
            headline=headline,
            leaders=leaders,
            next_=next_,
            graded=graded,
            as_of=as_of,
            age_seconds=age_seconds,
        )

        return venue_leaders_response

