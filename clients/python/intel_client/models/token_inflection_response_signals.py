from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="TokenInflectionResponseSignals")



@_attrs_define
class TokenInflectionResponseSignals:
    """ 
        Attributes:
            range_percentile (float | None):
            volume_ratio (float | None):
     """

    range_percentile: float | None
    volume_ratio: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        range_percentile: float | None
        range_percentile = self.range_percentile

        volume_ratio: float | None
        volume_ratio = self.volume_ratio


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "rangePercentile": range_percentile,
            "volumeRatio": volume_ratio,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_range_percentile(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        range_percentile = _parse_range_percentile(d.pop("rangePercentile"))


        def _parse_volume_ratio(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        volume_ratio = _parse_volume_ratio(d.pop("volumeRatio"))


        token_inflection_response_signals = cls(
            range_percentile=range_percentile,
            volume_ratio=volume_ratio,
        )


        token_inflection_response_signals.additional_properties = d
        return token_inflection_response_signals

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
