from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.track_record_group_base_rates import TrackRecordGroupBaseRates
  from ..models.track_record_group_horizons import TrackRecordGroupHorizons





T = TypeVar("T", bound="TrackRecordGroup")



@_attrs_define
class TrackRecordGroup:
    """ 
        Attributes:
            operation (str):
            value (str):
            rule (str): what counts as a hit
            horizons (TrackRecordGroupHorizons):
            base_rates (TrackRecordGroupBaseRates):
     """

    operation: str
    value: str
    rule: str
    horizons: TrackRecordGroupHorizons
    base_rates: TrackRecordGroupBaseRates
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.track_record_group_base_rates import TrackRecordGroupBaseRates # noqa: PLC0415
        from ..models.track_record_group_horizons import TrackRecordGroupHorizons # noqa: PLC0415
        operation = self.operation

        value = self.value

        rule = self.rule

        horizons = self.horizons.to_dict()

        base_rates = self.base_rates.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "operation": operation,
            "value": value,
            "rule": rule,
            "horizons": horizons,
            "baseRates": base_rates,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.track_record_group_base_rates import TrackRecordGroupBaseRates # noqa: PLC0415
        from ..models.track_record_group_horizons import TrackRecordGroupHorizons # noqa: PLC0415
        d = dict(src_dict)
        operation = d.pop("operation")

        value = d.pop("value")

        rule = d.pop("rule")

        horizons = TrackRecordGroupHorizons.from_dict(d.pop("horizons"))




        base_rates = TrackRecordGroupBaseRates.from_dict(d.pop("baseRates"))




        track_record_group = cls(
            operation=operation,
            value=value,
            rule=rule,
            horizons=horizons,
            base_rates=base_rates,
        )


        track_record_group.additional_properties = d
        return track_record_group

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
