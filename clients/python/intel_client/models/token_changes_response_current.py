from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.inflection_state import InflectionState
from ..models.momentum_band import MomentumBand
from ..models.risk_band import RiskBand
from ..models.token_signal_value import TokenSignalValue
from ..models.verdict import Verdict
from typing import cast






T = TypeVar("T", bound="TokenChangesResponseCurrent")



@_attrs_define
class TokenChangesResponseCurrent:
    """ 
        Attributes:
            verdict (Verdict):
            signal (TokenSignalValue):
            risk (RiskBand):
            momentum (MomentumBand):
            inflection (InflectionState | None):
     """

    verdict: Verdict
    signal: TokenSignalValue
    risk: RiskBand
    momentum: MomentumBand
    inflection: InflectionState | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        verdict = self.verdict.value

        signal = self.signal.value

        risk = self.risk.value

        momentum = self.momentum.value

        inflection: None | str
        if isinstance(self.inflection, InflectionState):
            inflection = self.inflection.value
        else:
            inflection = self.inflection


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "verdict": verdict,
            "signal": signal,
            "risk": risk,
            "momentum": momentum,
            "inflection": inflection,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        verdict = Verdict(d.pop("verdict"))




        signal = TokenSignalValue(d.pop("signal"))




        risk = RiskBand(d.pop("risk"))




        momentum = MomentumBand(d.pop("momentum"))




        def _parse_inflection(data: object) -> InflectionState | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                inflection_type_0 = InflectionState(data)



                return inflection_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(InflectionState | None, data)

        inflection = _parse_inflection(d.pop("inflection"))


        token_changes_response_current = cls(
            verdict=verdict,
            signal=signal,
            risk=risk,
            momentum=momentum,
            inflection=inflection,
        )


        token_changes_response_current.additional_properties = d
        return token_changes_response_current

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
