from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.track_record_row import TrackRecordRow
  from ..models.venue_track_record_response_separation_item import VenueTrackRecordResponseSeparationItem





T = TypeVar("T", bound="VenueTrackRecordResponse")



@_attrs_define
class VenueTrackRecordResponse:
    """ 
        Attributes:
            venue (str):
            method (str):
            rows (list[TrackRecordRow]):
            separation (list[VenueTrackRecordResponseSeparationItem]):
            accounts (int):
            as_of (None | str): ISO time of the last event folded into the data behind this response
            age_seconds (float | None): seconds between asOf and the time of the response
     """

    venue: str
    method: str
    rows: list[TrackRecordRow]
    separation: list[VenueTrackRecordResponseSeparationItem]
    accounts: int
    as_of: None | str
    age_seconds: float | None





    def to_dict(self) -> dict[str, Any]:
        from ..models.track_record_row import TrackRecordRow # noqa: PLC0415
        from ..models.venue_track_record_response_separation_item import VenueTrackRecordResponseSeparationItem # noqa: PLC0415
        venue = self.venue

        method = self.method

        rows = []
        for rows_item_data in self.rows:
            rows_item = rows_item_data.to_dict()
            rows.append(rows_item)



        separation = []
        for separation_item_data in self.separation:
            separation_item = separation_item_data.to_dict()
            separation.append(separation_item)



        accounts = self.accounts

        as_of: None | str
        as_of = self.as_of

        age_seconds: float | None
        age_seconds = self.age_seconds


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "venue": venue,
            "method": method,
            "rows": rows,
            "separation": separation,
            "accounts": accounts,
            "asOf": as_of,
            "ageSeconds": age_seconds,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.track_record_row import TrackRecordRow # noqa: PLC0415
        from ..models.venue_track_record_response_separation_item import VenueTrackRecordResponseSeparationItem # noqa: PLC0415
        d = dict(src_dict)
        venue = d.pop("venue")

        method = d.pop("method")

        rows = []
        _rows = d.pop("rows")
        for rows_item_data in (_rows):
            rows_item = TrackRecordRow.from_dict(rows_item_data)



            rows.append(rows_item)


        separation = []
        _separation = d.pop("separation")
        for separation_item_data in (_separation):
            separation_item = VenueTrackRecordResponseSeparationItem.from_dict(separation_item_data)



            separation.append(separation_item)


        accounts = d.pop("accounts")

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


        venue_track_record_response = cls(
            venue=venue,
            method=method,
            rows=rows,
            separation=separation,
            accounts=accounts,
            as_of=as_of,
            age_seconds=age_seconds,
        )

        return venue_track_record_response

