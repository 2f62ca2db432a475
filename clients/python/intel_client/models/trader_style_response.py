from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.hold_band import HoldBand
from ..models.size_band import SizeBand
from ..models.trader_style import TraderStyle
from ..models.trader_style_response_launch_timing import TraderStyleResponseLaunchTiming
from ..models.trader_style_response_tempo import TraderStyleResponseTempo
from typing import cast

if TYPE_CHECKING:
  from ..models.trader_style_response_signals import TraderStyleResponseSignals





T = TypeVar("T", bound="TraderStyleResponse")



@_attrs_define
class TraderStyleResponse:
    """ 
        Attributes:
            chain (str):
            wallet (str): the wallet address (lowercase)
            as_of (str): ISO time of the last event folded into the snapshot
            age_seconds (float): seconds between asOf and the time the response was served
            style (TraderStyle):
            median_hold (HoldBand | None):
            median_size (None | SizeBand):
            tempo (TraderStyleResponseTempo): trades per active day: <3 occasional, <20 active, else frantic
            launch_timing (TraderStyleResponseLaunchTiming): how often first buys fall in a launch window
            signals (TraderStyleResponseSignals):
            disqualifiers (list[str]):
     """

    chain: str
    wallet: str
    as_of: str
    age_seconds: float
    style: TraderStyle
    median_hold: HoldBand | None
    median_size: None | SizeBand
    tempo: TraderStyleResponseTempo
    launch_timing: TraderStyleResponseLaunchTiming
    signals: TraderStyleResponseSignals
    disqualifiers: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.trader_style_response_signals import TraderStyleResponseSignals # noqa: PLC0415
        chain = self.chain

        wallet = self.wallet

        as_of = self.as_of

        age_seconds = self.age_seconds

        style = self.style.value

        median_hold: None | str
        if isinstance(self.median_hold, HoldBand):
            median_hold = self.median_hold.value
        else:
            median_hold = self.median_hold

        median_size: None | str
        if isinstance(self.median_size, SizeBand):
            median_size = self.median_size.value
        else:
            median_size = self.median_size

        tempo = self.tempo.value

        launch_timing = self.launch_timing.value

        signals = self.signals.to_dict()

        disqualifiers = self.disqualifiers




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "wallet": wallet,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "style": style,
            "medianHold": median_hold,
            "medianSize": median_size,
            "tempo": tempo,
            "launchTiming": launch_timing,
            "signals": signals,
            "disqualifiers": disqualifiers,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.trader_style_response_signals import TraderStyleResponseSignals # noqa: PLC0415
        d = dict(src_dict)
        chain = d.pop("chain")

        wallet = d.pop("wallet")

        as_of = d.pop("asOf")

        age_seconds = d.pop("ageSeconds")

        style = TraderStyle(d.pop("style"))




        def _parse_median_hold(data: object) -> HoldBand | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                median_hold_type_0 = HoldBand(data)



                return median_hold_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HoldBand | None, data)

        median_hold = _parse_median_hold(d.pop("medianHold"))


        def _parse_median_size(data: object) -> None | SizeBand:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                median_size_type_0 = SizeBand(data)



                return median_size_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SizeBand, data)

        median_size = _parse_median_size(d.pop("medianSize"))


        tempo = TraderStyleResponseTempo(d.pop("tempo"))




        launch_timing = TraderStyleResponseLaunchTiming(d.pop("launchTiming"))




        signals = TraderStyleResponseSignals.from_dict(d.pop("signals"))




        disqualifiers = cast(list[str], d.pop("disqualifiers"))


        trader_style_response = cls(
            chain=chain,
            wallet=wallet,
            as_of=as_of,
            age_seconds=age_seconds,
            style=style,
            median_hold=median_hold,
            median_size=median_size,
            tempo=tempo,
            launch_timing=launch_timing,
            signals=signals,
            disqualifiers=disqualifiers,
        )


        trader_style_response.additional_properties = d
        return trader_style_response

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
