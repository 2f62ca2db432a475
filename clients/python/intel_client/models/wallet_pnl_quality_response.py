from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.profit_factor_band import ProfitFactorBand
from ..models.return_band import ReturnBand
from ..models.wallet_pnl_quality_response_quality import WalletPnlQualityResponseQuality
from typing import cast

if TYPE_CHECKING:
  from ..models.wallet_pnl_quality_response_consistency import WalletPnlQualityResponseConsistency





T = TypeVar("T", bound="WalletPnlQualityResponse")



@_attrs_define
class WalletPnlQualityResponse:
    """ 
        Attributes:
            chain (str):
            wallet (str): the wallet address (lowercase)
            as_of (str): ISO time of the last event folded into the snapshot
            age_seconds (float): seconds between asOf and the time the response was served
            win_rate_pct (float | None):
            profit_factor (float | None):
            profit_factor_band (None | ProfitFactorBand):
            realised_return_pct (float | None):
            realised_band (None | ReturnBand):
            unrealised_return_pct (float | None):
            unrealised_band (None | ReturnBand):
            avg_win_pct (float | None):
            avg_loss_pct (float | None):
            consistency (WalletPnlQualityResponseConsistency):
            quality (WalletPnlQualityResponseQuality):
            round_trips (int):
     """

    chain: str
    wallet: str
    as_of: str
    age_seconds: float
    win_rate_pct: float | None
    profit_factor: float | None
    profit_factor_band: None | ProfitFactorBand
    realised_return_pct: float | None
    realised_band: None | ReturnBand
    unrealised_return_pct: float | None
    unrealised_band: None | ReturnBand
    avg_win_pct: float | None
    avg_loss_pct: float | None
    consistency: WalletPnlQualityResponseConsistency
    quality: WalletPnlQualityResponseQuality
    round_trips: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.wallet_pnl_quality_response_consistency import WalletPnlQualityResponseConsistency # noqa: PLC0415
        chain = self.chain

        wallet = self.wallet

        as_of = self.as_of

        age_seconds = self.age_seconds

        win_rate_pct: float | None
        win_rate_pct = self.win_rate_pct

        profit_factor: float | None
        profit_factor = self.profit_factor

        profit_factor_band: None | str
        if isinstance(self.profit_factor_band, ProfitFactorBand):
            profit_factor_band = self.profit_factor_band.value
        else:
            profit_factor_band = self.profit_factor_band

        realised_return_pct: float | None
        realised_return_pct = self.realised_return_pct

        realised_band: None | str
        if isinstance(self.realised_band, ReturnBand):
            realised_band = self.realised_band.value
        else:
            realised_band = self.realised_band

        unrealised_return_pct: float | None
        unrealised_return_pct = self.unrealised_return_pct

        unrealised_band: None | str
        if isinstance(self.unrealised_band, ReturnBand):
            unrealised_band = self.unrealised_band.value
        else:
            unrealised_band = self.unrealised_band

        avg_win_pct: float | None
        avg_win_pct = self.avg_win_pct

        avg_loss_pct: float | None
        avg_loss_pct = self.avg_loss_pct

        consistency = self.consistency.to_dict()

        quality = self.quality.value

        round_trips = self.round_trips


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "wallet": wallet,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "winRatePct": win_rate_pct,
            "profitFactor": profit_factor,
            "profitFactorBand": profit_factor_band,
            "realisedReturnPct": realised_return_pct,
            "realisedBand": realised_band,
            "unrealisedReturnPct": unrealised_return_pct,
            "unrealisedBand": unrealised_band,
            "avgWinPct": avg_win_pct,
            "avgLossPct": avg_loss_pct,
            "consistency": consistency,
            "quality": quality,
            "roundTrips": round_trips,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.wallet_pnl_quality_response_consistency import WalletPnlQualityResponseConsistency # noqa: PLC0415
        d = dict(src_dict)
        chain = d.pop("chain")

        wallet = d.pop("wallet")

        as_of = d.pop("asOf")

        age_seconds = d.pop("ageSeconds")

        def _parse_win_rate_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        win_rate_pct = _parse_win_rate_pct(d.pop("winRatePct"))


        def _parse_profit_factor(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        profit_factor = _parse_profit_factor(d.pop("profitFactor"))


        def _parse_profit_factor_band(data: object) -> None | ProfitFactorBand:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                profit_factor_band_type_0 = ProfitFactorBand(data)



                return profit_factor_band_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ProfitFactorBand, data)

        profit_factor_band = _parse_profit_factor_band(d.pop("profitFactorBand"))


        def _parse_realised_return_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        realised_return_pct = _parse_realised_return_pct(d.pop("realisedReturnPct"))


        def _parse_realised_band(data: object) -> None | ReturnBand:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                realised_band_type_0 = ReturnBand(data)



                return realised_band_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReturnBand, data)

        realised_band = _parse_realised_band(d.pop("realisedBand"))


        def _parse_unrealised_return_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        unrealised_return_pct = _parse_unrealised_return_pct(d.pop("unrealisedReturnPct"))


        def _parse_unrealised_band(data: object) -> None | ReturnBand:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                unrealised_band_type_0 = ReturnBand(data)



                return unrealised_band_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReturnBand, data)

        unrealised_band = _parse_unrealised_band(d.pop("unrealisedBand"))


        def _parse_avg_win_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        avg_win_pct = _parse_avg_win_pct(d.pop("avgWinPct"))


        def _parse_avg_loss_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        avg_loss_pct = _parse_avg_loss_pct(d.pop("avgLossPct"))


        consistency = WalletPnlQualityResponseConsistency.from_dict(d.pop("consistency"))




        quality = WalletPnlQualityResponseQuality(d.pop("quality"))




        round_trips = d.pop("roundTrips")

        wallet_pnl_quality_response = cls(
            chain=chain,
            wallet=wallet,
            as_of=as_of,
            age_seconds=age_seconds,
            win_rate_pct=win_rate_pct,
            profit_factor=profit_factor,
            profit_factor_band=profit_factor_band,
            realised_return_pct=realised_return_pct,
            realised_band=realised_band,
            unrealised_return_pct=unrealised_return_pct,
            unrealised_band=unrealised_band,
            avg_win_pct=avg_win_pct,
            avg_loss_pct=avg_loss_pct,
            consistency=consistency,
            quality=quality,
            round_trips=round_trips,
        )


        wallet_pnl_quality_response.additional_properties = d
        return wallet_pnl_quality_response

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
