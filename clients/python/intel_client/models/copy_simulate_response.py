from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.copy_limits import CopyLimits
  from ..models.copy_simulate_response_outcome import CopySimulateResponseOutcome
  from ..models.copy_simulate_response_skips import CopySimulateResponseSkips
  from ..models.copy_simulate_response_window import CopySimulateResponseWindow
  from ..models.simulated_trade import SimulatedTrade





T = TypeVar("T", bound="CopySimulateResponse")



@_attrs_define
class CopySimulateResponse:
    """ 
        Attributes:
            chain (str):
            wallet (str): the wallet address (lowercase)
            as_of (str): ISO time of the last event folded into the snapshot
            age_seconds (float): seconds between asOf and the time the response was served
            limits (CopyLimits):
            window (CopySimulateResponseWindow):
            copied (int):
            skipped (int):
            skips (CopySimulateResponseSkips):
            trades (list[SimulatedTrade]):
            outcome (CopySimulateResponseOutcome):
            summary (str): model-written
     """

    chain: str
    wallet: str
    as_of: str
    age_seconds: float
    limits: CopyLimits
    window: CopySimulateResponseWindow
    copied: int
    skipped: int
    skips: CopySimulateResponseSkips
    trades: list[SimulatedTrade]
    outcome: CopySimulateResponseOutcome
    summary: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.copy_limits import CopyLimits # noqa: PLC0415
        from ..models.copy_simulate_response_outcome import CopySimulateResponseOutcome # noqa: PLC0415
        from ..models.copy_simulate_response_skips import CopySimulateResponseSkips # noqa: PLC0415
        from ..models.copy_simulate_response_window import CopySimulateResponseWindow # noqa: PLC0415
        from ..models.simulated_trade import SimulatedTrade # noqa: PLC0415
        chain = self.chain

        wallet = self.wallet

        as_of = self.as_of

        age_seconds = self.age_seconds

        limits = self.limits.to_dict()

        window = self.window.to_dict()

        copied = self.copied

        skipped = self.skipped

        skips = self.skips.to_dict()

        trades = []
        for trades_item_data in self.trades:
            trades_item = trades_item_data.to_dict()
            trades.append(trades_item)



        outcome = self.outcome.to_dict()

        summary = self.summary


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "wallet": wallet,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "limits": limits,
            "window": window,
            "copied": copied,
            "skipped": skipped,
            "skips": skips,
            "trades": trades,
            "outcome": outcome,
            "summary": summary,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.copy_limits import CopyLimits # noqa: PLC0415
        from ..models.copy_simulate_response_outcome import CopySimulateResponseOutcome # noqa: PLC0415
        from ..models.copy_simulate_response_skips import CopySimulateResponseSkips # noqa: PLC0415
        from ..models.copy_simulate_response_window import CopySimulateResponseWindow # noqa: PLC0415
        from ..models.simulated_trade import SimulatedTrade # noqa: PLC0415
        d = dict(src_dict)
        chain = d.pop("chain")

        wallet = d.pop("wallet")

        as_of = d.pop("asOf")

        age_seconds = d.pop("ageSeconds")

        limits = CopyLimits.from_dict(d.pop("limits"))




        window = CopySimulateResponseWindow.from_dict(d.pop("window"))




        copied = d.pop("copied")

        skipped = d.pop("skipped")

        skips = CopySimulateResponseSkips.from_dict(d.pop("skips"))




        trades = []
        _trades = d.pop("trades")
        for trades_item_data in (_trades):
            trades_item = SimulatedTrade.from_dict(trades_item_data)



            trades.append(trades_item)


        outcome = CopySimulateResponseOutcome.from_dict(d.pop("outcome"))




        summary = d.pop("summary")

        copy_simulate_response = cls(
            chain=chain,
            wallet=wallet,
            as_of=as_of,
            age_seconds=age_seconds,
            limits=limits,
            window=window,
            copied=copied,
            skipped=skipped,
            skips=skips,
            trades=trades,
            outcome=outcome,
            summary=summary,
        )


        copy_simulate_response.additional_properties = d
        return copy_simulate_response

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
