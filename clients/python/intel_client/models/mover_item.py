from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.risk_band import RiskBand
from ..models.verdict import Verdict
from typing import cast

if TYPE_CHECKING:
  from ..models.mover_item_momentum import MoverItemMomentum
  from ..models.mover_item_signals import MoverItemSignals





T = TypeVar("T", bound="MoverItem")



@_attrs_define
class MoverItem:
    """ 
        Attributes:
            token (str): token address, for follow-up token operations
            chain (str):
            symbol (None | str):
            momentum (MoverItemMomentum):
            risk (RiskBand):
            signals (MoverItemSignals):
            verdict (Verdict):
     """

    token: str
    chain: str
    symbol: None | str
    momentum: MoverItemMomentum
    risk: RiskBand
    signals: MoverItemSignals
    verdict: Verdict
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.mover_item_momentum import MoverItemMomentum # noqa: PLC0415
        from ..models.mover_item_signals import MoverItemSignals # noqa: PLC0415
        token = self.token

        chain = self.chain

        symbol: None | str
        symbol = self.symbol

        momentum = self.momentum.to_dict()

        risk = self.risk.value

        signals = self.signals.to_dict()

        verdict = self.verdict.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "token": token,
            "chain": chain,
            "symbol": symbol,
            "momentum": momentum,
            "risk": risk,
            "signals": signals,
            "verdict": verdict,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.mover_item_momentum import MoverItemMomentum # noqa: PLC0415
        from ..models.mover_item_signals import MoverItemSignals # noqa: PLC0415
        d = dict(src_dict)
        token = d.pop("token")

        chain = d.pop("chain")

        def _parse_symbol(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        symbol = _parse_symbol(d.pop("symbol"))


        momentum = MoverItemMomentum.from_dict(d.pop("momentum"))




        risk = RiskBand(d.pop("risk"))




        signals = MoverItemSignals.from_dict(d.pop("signals"))




        verdict = Verdict(d.pop("verdict"))




        mover_item = cls(
            token=token,
            chain=chain,
            symbol=symbol,
            momentum=momentum,
            risk=risk,
            signals=signals,
            verdict=verdict,
        )


        mover_item.additional_properties = d
        return mover_item

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
