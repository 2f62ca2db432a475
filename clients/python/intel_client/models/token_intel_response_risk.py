from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.risk_band import RiskBand
from typing import cast

if TYPE_CHECKING:
  from ..models.risk_flags import RiskFlags





T = TypeVar("T", bound="TokenIntelResponseRisk")



@_attrs_define
class TokenIntelResponseRisk:
    """ 
        Attributes:
            band (RiskBand):
            score (float):
            flags (RiskFlags):
     """

    band: RiskBand
    score: float
    flags: RiskFlags
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.risk_flags import RiskFlags # noqa: PLC0415
        band = self.band.value

        score = self.score

        flags = self.flags.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "band": band,
            "score": score,
            "flags": flags,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.risk_flags import RiskFlags # noqa: PLC0415
        d = dict(src_dict)
        band = RiskBand(d.pop("band"))




        score = d.pop("score")

        flags = RiskFlags.from_dict(d.pop("flags"))




        token_intel_response_risk = cls(
            band=band,
            score=score,
            flags=flags,
        )


        token_intel_response_risk.additional_properties = d
        return token_intel_response_risk

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
