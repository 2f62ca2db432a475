from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.return_band import ReturnBand
from ..models.simulated_trade_action import SimulatedTradeAction
from ..models.simulated_trade_status import SimulatedTradeStatus
from typing import cast






T = TypeVar("T", bound="SimulatedTrade")



@_attrs_define
class SimulatedTrade:
    """ 
        Attributes:
            token (str):
            chain (str):
            symbol (None | str):
            entered_at (str):
            action (SimulatedTradeAction):
            reason (None | str): why a trade was skipped
            copy_size_usd (float):
            status (SimulatedTradeStatus):
            outcome (None | ReturnBand):
            return_pct (float | None): the leader return on the token, capped at the stop loss
     """

    token: str
    chain: str
    symbol: None | str
    entered_at: str
    action: SimulatedTradeAction
    reason: None | str
    copy_size_usd: float
    status: SimulatedTradeStatus
    outcome: None | ReturnBand
    return_pct: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        token = self.token

        chain = self.chain

        symbol: None | str
        symbol = self.symbol

        entered_at = self.entered_at

        action = self.action.value

        reason: None | str
        reason = self.reason

        copy_size_usd = self.copy_size_usd

        status = self.status.value

        outcome: None | str
        if isinstance(self.outcome, ReturnBand):
            outcome = self.outcome.value
        else:
            outcome = self.outcome

        return_pct: float | None
        return_pct = self.return_pct


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "token": token,
            "chain": chain,
            "symbol": symbol,
            "enteredAt": entered_at,
            "action": action,
            "reason": reason,
            "copySizeUsd": copy_size_usd,
            "status": status,
            "outcome": outcome,
            "returnPct": return_pct,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        token = d.pop("token")

        chain = d.pop("chain")

        def _parse_symbol(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        symbol = _parse_symbol(d.pop("symbol"))


        entered_at = d.pop("enteredAt")

        action = SimulatedTradeAction(d.pop("action"))




        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))


        copy_size_usd = d.pop("copySizeUsd")

        status = SimulatedTradeStatus(d.pop("status"))




        def _parse_outcome(data: object) -> None | ReturnBand:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                outcome_type_0 = ReturnBand(data)



                return outcome_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReturnBand, data)

        outcome = _parse_outcome(d.pop("outcome"))


        def _parse_return_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        return_pct = _parse_return_pct(d.pop("returnPct"))


        simulated_trade = cls(
            token=token,
            chain=chain,
            symbol=symbol,
            entered_at=entered_at,
            action=action,
            reason=reason,
            copy_size_usd=copy_size_usd,
            status=status,
            outcome=outcome,
            return_pct=return_pct,
        )


        simulated_trade.additional_properties = d
        return simulated_trade

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
