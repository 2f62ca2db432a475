from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.risk_band import RiskBand
from ..models.token_signal_value import TokenSignalValue
from ..models.verdict import Verdict
from typing import cast






T = TypeVar("T", bound="TokenCompareResponseRankedItem")



@_attrs_define
class TokenCompareResponseRankedItem:
    """ 
        Attributes:
            rank (int):
            token (str):
            chain (str):
            symbol (None | str):
            verdict (Verdict):
            signal (TokenSignalValue):
            conviction (float):
            risk (RiskBand):
            pillars_lit (int):
     """

    rank: int
    token: str
    chain: str
    symbol: None | str
    verdict: Verdict
    signal: TokenSignalValue
    conviction: float
    risk: RiskBand
    pillars_lit: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        rank = self.rank

        token = self.token

        chain = self.chain

        symbol: None | str
        symbol = self.symbol

        verdict = self.verdict.value

        signal = self.signal.value

        conviction = self.conviction

        risk = self.risk.value

        pillars_lit = self.pillars_lit


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "rank": rank,
            "token": token,
            "chain": chain,
            "symbol": symbol,
            "verdict": verdict,
            "signal": signal,
            "conviction": conviction,
            "risk": risk,
            "pillarsLit": pillars_lit,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rank = d.pop("rank")

        token = d.pop("token")

        chain = d.pop("chain")

        def _parse_symbol(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        symbol = _parse_symbol(d.pop("symbol"))


        verdict = Verdict(d.pop("verdict"))




        signal = TokenSignalValue(d.pop("signal"))




        conviction = d.pop("conviction")

        risk = RiskBand(d.pop("risk"))




        pillars_lit = d.pop("pillarsLit")

        token_compare_response_ranked_item = cls(
            rank=rank,
            token=token,
            chain=chain,
            symbol=symbol,
            verdict=verdict,
            signal=signal,
            conviction=conviction,
            risk=risk,
            pillars_lit=pillars_lit,
        )


        token_compare_response_ranked_item.additional_properties = d
        return token_compare_response_ranked_item

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
