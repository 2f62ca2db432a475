from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.depth_band import DepthBand
from ..models.flow_direction import FlowDirection
from ..models.level_band import LevelBand
from ..models.volume_band import VolumeBand






T = TypeVar("T", bound="MoverItemSignals")



@_attrs_define
class MoverItemSignals:
    """ 
        Attributes:
            flow (FlowDirection):
            activity (VolumeBand):
            liquidity (DepthBand):
            holder_base (LevelBand):
     """

    flow: FlowDirection
    activity: VolumeBand
    liquidity: DepthBand
    holder_base: LevelBand
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        flow = self.flow.value

        activity = self.activity.value

        liquidity = self.liquidity.value

        holder_base = self.holder_base.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "flow": flow,
            "activity": activity,
            "liquidity": liquidity,
            "holderBase": holder_base,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        flow = FlowDirection(d.pop("flow"))




        activity = VolumeBand(d.pop("activity"))




        liquidity = DepthBand(d.pop("liquidity"))




        holder_base = LevelBand(d.pop("holderBase"))




        mover_item_signals = cls(
            flow=flow,
            activity=activity,
            liquidity=liquidity,
            holder_base=holder_base,
        )


        mover_item_signals.additional_properties = d
        return mover_item_signals

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
