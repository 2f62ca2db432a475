from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.portfolio_risk_response_concentration_band import PortfolioRiskResponseConcentrationBand
from typing import cast






T = TypeVar("T", bound="PortfolioRiskResponseConcentration")



@_attrs_define
class PortfolioRiskResponseConcentration:
    """ 
        Attributes:
            top_position_share_pct (float | None):
            band (PortfolioRiskResponseConcentrationBand):
     """

    top_position_share_pct: float | None
    band: PortfolioRiskResponseConcentrationBand
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        top_position_share_pct: float | None
        top_position_share_pct = self.top_position_share_pct

        band = self.band.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "topPositionSharePct": top_position_share_pct,
            "band": band,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_top_position_share_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        top_position_share_pct = _parse_top_position_share_pct(d.pop("topPositionSharePct"))


        band = PortfolioRiskResponseConcentrationBand(d.pop("band"))




        portfolio_risk_response_concentration = cls(
            top_position_share_pct=top_position_share_pct,
            band=band,
        )


        portfolio_risk_response_concentration.additional_properties = d
        return portfolio_risk_response_concentration

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
