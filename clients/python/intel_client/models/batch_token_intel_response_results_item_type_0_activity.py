from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.trend import Trend
from typing import cast

if TYPE_CHECKING:
  from ..models.activity_window import ActivityWindow





T = TypeVar("T", bound="BatchTokenIntelResponseResultsItemType0Activity")



@_attrs_define
class BatchTokenIntelResponseResultsItemType0Activity:
    """ 
        Attributes:
            m5 (ActivityWindow):
            h1 (ActivityWindow):
            h24 (ActivityWindow):
            holders (int):
            holder_trend (Trend):
     """

    m5: ActivityWindow
    h1: ActivityWindow
    h24: ActivityWindow
    holders: int
    holder_trend: Trend
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.activity_window import ActivityWindow # noqa: PLC0415
        m5 = self.m5.to_dict()

        h1 = self.h1.to_dict()

        h24 = self.h24.to_dict()

        holders = self.holders

        holder_trend = self.holder_trend.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "m5": m5,
            "h1": h1,
            "h24": h24,
            "holders": holders,
            "holderTrend": holder_trend,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.activity_window import ActivityWindow # noqa: PLC0415
        d = dict(src_dict)
        m5 = ActivityWindow.from_dict(d.pop("m5"))




        h1 = ActivityWindow.from_dict(d.pop("h1"))




        h24 = ActivityWindow.from_dict(d.pop("h24"))




        holders = d.pop("holders")

        holder_trend = Trend(d.pop("holderTrend"))




        batch_token_intel_response_results_item_type_0_activity = cls(
            m5=m5,
            h1=h1,
            h24=h24,
            holders=holders,
            holder_trend=holder_trend,
        )


        batch_token_intel_response_results_item_type_0_activity.additional_properties = d
        return batch_token_intel_response_results_item_type_0_activity

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
