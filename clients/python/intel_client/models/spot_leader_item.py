from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.edge_band import EdgeBand
from ..models.hold_band import HoldBand
from ..models.quality_band import QualityBand
from ..models.size_band import SizeBand
from ..models.trader_style import TraderStyle
from ..models.verdict import Verdict
from typing import cast






T = TypeVar("T", bound="SpotLeaderItem")



@_attrs_define
class SpotLeaderItem:
    """ 
        Attributes:
            rank (int):
            wallet (str):
            chain (str):
            grade (Verdict):
            copy_score (int): trader score weighted towards copyability
            style (TraderStyle):
            edge (EdgeBand):
            copyability (QualityBand):
            median_hold (HoldBand | None):
            median_size (None | SizeBand):
     """

    rank: int
    wallet: str
    chain: str
    grade: Verdict
    copy_score: int
    style: TraderStyle
    edge: EdgeBand
    copyability: QualityBand
    median_hold: HoldBand | None
    median_size: None | SizeBand
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        rank = self.rank

        wallet = self.wallet

        chain = self.chain

        grade = self.grade.value

        copy_score = self.copy_score

        style = self.style.value

        edge = self.edge.value

        copyability = self.copyability.value

        median_hold: None | str
        if isinstance(self.median_hold, HoldBand):
            median_hold = self.median_hold.value
        else:
            median_hold = self.median_hold

        median_size: None | str
        if isinstance(self.median_size, SizeBand):
            median_size = self.median_size.value
        else:
            median_size = self.median_size


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "rank": rank,
            "wallet": wallet,
            "chain": chain,
            "grade": grade,
            "copyScore": copy_score,
            "style": style,
            "edge": edge,
            "copyability": copyability,
            "medianHold": median_hold,
            "medianSize": median_size,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rank = d.pop("rank")

        wallet = d.pop("wallet")

        chain = d.pop("chain")

        grade = Verdict(d.pop("grade"))




        copy_score = d.pop("copyScore")

        style = TraderStyle(d.pop("style"))




        edge = EdgeBand(d.pop("edge"))




        copyability = QualityBand(d.pop("copyability"))




        def _parse_median_hold(data: object) -> HoldBand | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                median_hold_type_0 = HoldBand(data)



                return median_hold_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HoldBand | None, data)

        median_hold = _parse_median_hold(d.pop("medianHold"))


        def _parse_median_size(data: object) -> None | SizeBand:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                median_size_type_0 = SizeBand(data)



                return median_size_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SizeBand, data)

        median_size = _parse_median_size(d.pop("medianSize"))


        spot_leader_item = cls(
            rank=rank,
            wallet=wallet,
            chain=chain,
            grade=grade,
            copy_score=copy_score,
            style=style,
            edge=edge,
            copyability=copyability,
            median_hold=median_hold,
            median_size=median_size,
        )


        spot_leader_item.additional_properties = d
        return spot_leader_item

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
