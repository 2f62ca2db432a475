from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.return_band import ReturnBand
from typing import cast






T = TypeVar("T", bound="CopySimulateResponseOutcome")



@_attrs_define
class CopySimulateResponseOutcome:
    """ 
        Attributes:
            band (None | ReturnBand):
            return_on_deployed_pct (float | None):
            hit_rate_pct (float | None):
            scored (int):
     """

    band: None | ReturnBand
    return_on_deployed_pct: float | None
    hit_rate_pct: float | None
    scored: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        band: None | str
        if isinstance(self.band, ReturnBand):
            band = self.band.value
        else:
            band = self.band

        return_on_deployed_pct: float | None
        return_on_deployed_pct = self.return_on_deployed_pct

        hit_rate_pct: float | None
        hit_rate_pct = self.hit_rate_pct

        scored = self.scored


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "band": band,
            "returnOnDeployedPct": return_on_deployed_pct,
            "hitRatePct": hit_rate_pct,
            "scored": scored,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_band(data: object) -> None | ReturnBand:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                band_type_0 = ReturnBand(data)



                return band_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReturnBand, data)

        band = _parse_band(d.pop("band"))


        def _parse_return_on_deployed_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        return_on_deployed_pct = _parse_return_on_deployed_pct(d.pop("returnOnDeployedPct"))


        def _parse_hit_rate_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        hit_rate_pct = _parse_hit_rate_pct(d.pop("hitRatePct"))


        scored = d.pop("scored")

        copy_simulate_response_outcome = cls(
            band=band,
            return_on_deployed_pct=return_on_deployed_pct,
            hit_rate_pct=hit_rate_pct,
            scored=scored,
        )


        copy_simulate_response_outcome.additional_properties = d
        return copy_simulate_response_outcome

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
