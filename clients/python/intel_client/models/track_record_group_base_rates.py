from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.base_rate import BaseRate





T = TypeVar("T", bound="TrackRecordGroupBaseRates")



@_attrs_define
class TrackRecordGroupBaseRates:
    """ 
        Attributes:
            field_1h (BaseRate): what the hit rate is to be read against: the same rule applied to every subject recorded
            field_24h (BaseRate): what the hit rate is to be read against: the same rule applied to every subject recorded
            field_7d (BaseRate): what the hit rate is to be read against: the same rule applied to every subject recorded
     """

    field_1h: BaseRate
    field_24h: BaseRate
    field_7d: BaseRate
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.base_rate import BaseRate # noqa: PLC0415
        field_1h = self.field_1h.to_dict()

        field_24h = self.field_24h.to_dict()

        field_7d = self.field_7d.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "1h": field_1h,
            "24h": field_24h,
            "7d": field_7d,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.base_rate import BaseRate # noqa: PLC0415
        d = dict(src_dict)
        field_1h = BaseRate.from_dict(d.pop("1h"))




        field_24h = BaseRate.from_dict(d.pop("24h"))




        field_7d = BaseRate.from_dict(d.pop("7d"))




        track_record_group_base_rates = cls(
            field_1h=field_1h,
            field_24h=field_24h,
            field_7d=field_7d,
        )


        track_record_group_base_rates.additional_properties = d
        return track_record_group_base_rates

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
