from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.copy_overlap_response_overlap import CopyOverlapResponseOverlap
from typing import cast

if TYPE_CHECKING:
  from ..models.copy_overlap_response_leaders_item import CopyOverlapResponseLeadersItem
  from ..models.copy_overlap_response_pairs_item import CopyOverlapResponsePairsItem
  from ..models.copy_overlap_response_shared_item import CopyOverlapResponseSharedItem





T = TypeVar("T", bound="CopyOverlapResponse")



@_attrs_define
class CopyOverlapResponse:
    """ 
        Attributes:
            chain (str):
            as_of (None | str):
            age_seconds (float | None):
            overlap (CopyOverlapResponseOverlap):
            overlap_pct (float): tokens traded by two or more leaders over tokens traded by any, percent
            leaders (list[CopyOverlapResponseLeadersItem]):
            pairs (list[CopyOverlapResponsePairsItem]):
            shared (list[CopyOverlapResponseSharedItem]):
     """

    chain: str
    as_of: None | str
    age_seconds: float | None
    overlap: CopyOverlapResponseOverlap
    overlap_pct: float
    leaders: list[CopyOverlapResponseLeadersItem]
    pairs: list[CopyOverlapResponsePairsItem]
    shared: list[CopyOverlapResponseSharedItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.copy_overlap_response_leaders_item import CopyOverlapResponseLeadersItem # noqa: PLC0415
        from ..models.copy_overlap_response_pairs_item import CopyOverlapResponsePairsItem # noqa: PLC0415
        from ..models.copy_overlap_response_shared_item import CopyOverlapResponseSharedItem # noqa: PLC0415
        chain = self.chain

        as_of: None | str
        as_of = self.as_of

        age_seconds: float | None
        age_seconds = self.age_seconds

        overlap = self.overlap.value

        overlap_pct = self.overlap_pct

        leaders = []
        for leaders_item_data in self.leaders:
            leaders_item = leaders_item_data.to_dict()
            leaders.append(leaders_item)



        pairs = []
        for pairs_item_data in self.pairs:
            pairs_item = pairs_item_data.to_dict()
            pairs.append(pairs_item)



        shared = []
        for shared_item_data in self.shared:
            shared_item = shared_item_data.to_dict()
            shared.append(shared_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "overlap": overlap,
            "overlapPct": overlap_pct,
            "leaders": leaders,
            "pairs": pairs,
            "shared": shared,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.copy_overlap_response_leaders_item import CopyOverlapResponseLeadersItem # noqa: PLC0415
        from ..models.copy_overlap_response_pairs_item import CopyOverlapResponsePairsItem # noqa: PLC0415
        from ..models.copy_overlap_response_shared_item import CopyOverlapResponseSharedItem # noqa: PLC0415
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


        overlap = CopyOverlapResponseOverlap(d.pop("overlap"))




        overlap_pct = d.pop("overlapPct")

        leaders = []
        _leaders = d.pop("leaders")
        for leaders_item_data in (_leaders):
            leaders_item = CopyOverlapResponseLeadersItem.from_dict(leaders_item_data)



            leaders.append(leaders_item)


        pairs = []
        _pairs = d.pop("pairs")
        for pairs_item_data in (_pairs):
            pairs_item = CopyOverlapResponsePairsItem.from_dict(pairs_item_data)



            pairs.append(pairs_item)


        shared = []
        _shared = d.pop("shared")
        for shared_item_data in (_shared):
            shared_item = CopyOverlapResponseSharedItem.from_dict(shared_item_data)



            shared.append(shared_item)


        copy_overlap_response = cls(
            chain=chain,
            as_of=as_of,
            age_seconds=age_seconds,
            overlap=overlap,
            overlap_pct=overlap_pct,
            leaders=leaders,
            pairs=pairs,
            shared=shared,
        )


        copy_overlap_response.additional_properties = d
        return copy_overlap_response

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
