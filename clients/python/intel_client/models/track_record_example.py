from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.track_record_example_horizon import TrackRecordExampleHorizon
from ..models.track_record_example_outcome import TrackRecordExampleOutcome
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="TrackRecordExample")



@_attrs_define
class TrackRecordExample:
    """ 
        Attributes:
            operation (str):
            chain (str):
            symbol (None | str):
            value (str):
            horizon (TrackRecordExampleHorizon):
            outcome (TrackRecordExampleOutcome):
            forward_return_pct (float | None):
            benchmark_pct (float | None):
            recorded_at (str):
            token (str | Unset):
            wallet (str | Unset):
     """

    operation: str
    chain: str
    symbol: None | str
    value: str
    horizon: TrackRecordExampleHorizon
    outcome: TrackRecordExampleOutcome
    forward_return_pct: float | None
    benchmark_pct: float | None
    recorded_at: str
    token: str | Unset = UNSET
    wallet: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        operation = self.operation

        chain = self.chain

        symbol: None | str
        symbol = self.symbol

        value = self.value

        horizon = self.horizon.value

        outcome = self.outcome.value

        forward_return_pct: float | None
        forward_return_pct = self.forward_return_pct

        benchmark_pct: float | None
        benchmark_pct = self.benchmark_pct

        recorded_at = self.recorded_at

        token = self.token

        wallet = self.wallet


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "operation": operation,
            "chain": chain,
            "symbol": symbol,
            "value": value,
            "horizon": horizon,
            "outcome": outcome,
            "forwardReturnPct": forward_return_pct,
            "benchmarkPct": benchmark_pct,
            "recordedAt": recorded_at,
        })
        if token is not UNSET:
            field_dict["token"] = token
        if wallet is not UNSET:
            field_dict["wallet"] = wallet

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        operation = d.pop("operation")

        chain = d.pop("chain")

        def _parse_symbol(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        symbol = _parse_symbol(d.pop("symbol"))


        value = d.pop("value")

        horizon = TrackRecordExampleHorizon(d.pop("horizon"))




        outcome = TrackRecordExampleOutcome(d.pop("outcome"))




        def _parse_forward_return_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        forward_return_pct = _parse_forward_return_pct(d.pop("forwardReturnPct"))


        def _parse_benchmark_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        benchmark_pct = _parse_benchmark_pct(d.pop("benchmarkPct"))


        recorded_at = d.pop("recordedAt")

        token = d.pop("token", UNSET)

        wallet = d.pop("wallet", UNSET)

        track_record_example = cls(
            operation=operation,
            chain=chain,
            symbol=symbol,
            value=value,
            horizon=horizon,
            outcome=outcome,
            forward_return_pct=forward_return_pct,
            benchmark_pct=benchmark_pct,
            recorded_at=recorded_at,
            token=token,
            wallet=wallet,
        )


        track_record_example.additional_properties = d
        return track_record_example

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
