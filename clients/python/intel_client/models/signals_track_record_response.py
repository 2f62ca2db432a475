from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.signals_track_record_response_overall import SignalsTrackRecordResponseOverall
  from ..models.track_record_example import TrackRecordExample
  from ..models.track_record_group import TrackRecordGroup





T = TypeVar("T", bound="SignalsTrackRecordResponse")



@_attrs_define
class SignalsTrackRecordResponse:
    """ 
        Attributes:
            chain (str):
            records (int):
            groups (list[TrackRecordGroup]):
            overall (SignalsTrackRecordResponseOverall):
            recent (list[TrackRecordExample]):
            method (str):
            next_ (None | str): pass as `cursor` for the next page; null on the last page. Opaque: the position after the
                last item, stable when the list changes between calls
     """

    chain: str
    records: int
    groups: list[TrackRecordGroup]
    overall: SignalsTrackRecordResponseOverall
    recent: list[TrackRecordExample]
    method: str
    next_: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.signals_track_record_response_overall import SignalsTrackRecordResponseOverall # noqa: PLC0415
        from ..models.track_record_example import TrackRecordExample # noqa: PLC0415
        from ..models.track_record_group import TrackRecordGroup # noqa: PLC0415
        chain = self.chain

        records = self.records

        groups = []
        for groups_item_data in self.groups:
            groups_item = groups_item_data.to_dict()
            groups.append(groups_item)



        overall = self.overall.to_dict()

        recent = []
        for recent_item_data in self.recent:
            recent_item = recent_item_data.to_dict()
            recent.append(recent_item)



        method = self.method

        next_: None | str
        next_ = self.next_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "records": records,
            "groups": groups,
            "overall": overall,
            "recent": recent,
            "method": method,
            "next": next_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.signals_track_record_response_overall import SignalsTrackRecordResponseOverall # noqa: PLC0415
        from ..models.track_record_example import TrackRecordExample # noqa: PLC0415
        from ..models.track_record_group import TrackRecordGroup # noqa: PLC0415
        d = dict(src_dict)
        chain = d.pop("chain")

        records = d.pop("records")

        groups = []
        _groups = d.pop("groups")
        for groups_item_data in (_groups):
            groups_item = TrackRecordGroup.from_dict(groups_item_data)



            groups.append(groups_item)


        overall = SignalsTrackRecordResponseOverall.from_dict(d.pop("overall"))




        recent = []
        _recent = d.pop("recent")
        for recent_item_data in (_recent):
            recent_item = TrackRecordExample.from_dict(recent_item_data)



            recent.append(recent_item)


        method = d.pop("method")

        def _parse_next_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_ = _parse_next_(d.pop("next"))


        signals_track_record_response = cls(
            chain=chain,
            records=records,
            groups=groups,
            overall=overall,
            recent=recent,
            method=method,
            next_=next_,
        )


        signals_track_record_response.additional_properties = d
        return signals_track_record_response

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
