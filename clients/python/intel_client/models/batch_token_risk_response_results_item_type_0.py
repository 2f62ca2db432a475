from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.risk_band import RiskBand
from typing import cast

if TYPE_CHECKING:
  from ..models.batch_token_risk_response_results_item_type_0_signals import BatchTokenRiskResponseResultsItemType0Signals
  from ..models.risk_flags import RiskFlags





T = TypeVar("T", bound="BatchTokenRiskResponseResultsItemType0")



@_attrs_define
class BatchTokenRiskResponseResultsItemType0:
    """ 
        Attributes:
            chain (str):
            token (str): token address, lowercase
            symbol (None | str):
            as_of (str): ISO time of the last event folded into the snapshot
            age_seconds (float): seconds between asOf and the time the response was served
            risk (RiskBand):
            score (float):
            signals (BatchTokenRiskResponseResultsItemType0Signals):
            flags (RiskFlags):
     """

    chain: str
    token: str
    symbol: None | str
    as_of: str
    age_seconds: float
    risk: RiskBand
    score: float
    signals: BatchTokenRiskResponseResultsItemType0Signals
    flags: RiskFlags
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.batch_token_risk_response_results_item_type_0_signals import BatchTokenRiskResponseResultsItemType0Signals # noqa: PLC0415
        from ..models.risk_flags import RiskFlags # noqa: PLC0415
        chain = self.chain

        token = self.token

        symbol: None | str
        symbol = self.symbol

        as_of = self.as_of

        age_seconds = self.age_seconds

        risk = self.risk.value

        score = self.score

        signals = self.signals.to_dict()

        flags = self.flags.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "token": token,
            "symbol": symbol,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "risk": risk,
            "score": score,
            "signals": signals,
            "flags": flags,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.batch_token_risk_response_results_item_type_0_signals import BatchTokenRiskResponseResultsItemType0Signals # noqa: PLC0415
        from ..models.risk_flags import RiskFlags # noqa: PLC0415
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

        risk = RiskBand(d.pop("risk"))




        score = d.pop("score")

        signals = BatchTokenRiskResponseResultsItemType0Signals.from_dict(d.pop("signals"))




        flags = RiskFlags.from_dict(d.pop("flags"))




        batch_token_risk_response_results_item_type_0 = cls(
            chain=chain,
            token=token,
            symbol=symbol,
            as_of=as_of,
            age_seconds=age_seconds,
            risk=risk,
            score=score,
            signals=signals,
            flags=flags,
        )


        batch_token_risk_response_results_item_type_0.additional_properties = d
        return batch_token_risk_response_results_item_type_0

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
