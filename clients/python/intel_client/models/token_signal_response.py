from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.token_signal_value import TokenSignalValue
from typing import cast

if TYPE_CHECKING:
  from ..models.pillars import Pillars





T = TypeVar("T", bound="TokenSignalResponse")



@_attrs_define
class TokenSignalResponse:
    """ 
        Attributes:
            chain (str):
            token (str):
            symbol (None | str):
            as_of (str): ISO time of the last event folded into the snapshot
            age_seconds (float): seconds between asOf and the time the response was served
            signal (TokenSignalValue):
            conviction (float):
            pillars (Pillars):
            pillars_lit (int):
            rationale (str):
     """

    chain: str
    token: str
    symbol: None | str
    as_of: str
    age_seconds: float
    signal: TokenSignalValue
    conviction: float
    pillars: Pillars
    pillars_lit: int
    rationale: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.pillars import Pillars # noqa: PLC0415
        chain = self.chain

        token = self.token

        symbol: None | str
        symbol = self.symbol

        as_of = self.as_of

        age_seconds = self.age_seconds

        signal = self.signal.value

        conviction = self.conviction

        pillars = self.pillars.to_dict()

        pillars_lit = self.pillars_lit

        rationale = self.rationale


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "token": token,
            "symbol": symbol,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "signal": signal,
            "conviction": conviction,
            "pillars": pillars,
            "pillarsLit": pillars_lit,
            "rationale": rationale,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.pillars import Pillars # noqa: PLC0415
        d = dict(src_dict)
        chain = d.pop("chain")

        token = d.pop("token")

        def _parse_symbol(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        symbol = _parse_symbol(d.pop("symbol"))


        as_of = d.pop("asOf")

        age_seconds = d.pop("ageSeconds")

        signal = TokenSignalValue(d.pop("signal"))




        conviction = d.pop("conviction")

        pillars = Pillars.from_dict(d.pop("pillars"))




        pillars_lit = d.pop("pillarsLit")

        rationale = d.pop("rationale")

        token_signal_response = cls(
            chain=chain,
            token=token,
            symbol=symbol,
            as_of=as_of,
            age_seconds=age_seconds,
            signal=signal,
            conviction=conviction,
            pillars=pillars,
            pillars_lit=pillars_lit,
            rationale=rationale,
        )


        token_signal_response.additional_properties = d
        return token_signal_response

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
