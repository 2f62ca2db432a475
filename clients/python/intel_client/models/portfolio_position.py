from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.return_band import ReturnBand
from ..models.risk_band import RiskBand
from typing import cast






T = TypeVar("T", bound="PortfolioPosition")



@_attrs_define
class PortfolioPosition:
    """ 
        Attributes:
            token (str):
            chain (str):
            symbol (None | str):
            risk (None | RiskBand):
            exit_risk (None | RiskBand):
            flags (list[str]):
            exposure_share_pct (float): share of the wallet's open cost in this token
            unrealised (None | ReturnBand):
     """

    token: str
    chain: str
    symbol: None | str
    risk: None | RiskBand
    exit_risk: None | RiskBand
    flags: list[str]
    exposure_share_pct: float
    unrealised: None | ReturnBand
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        token = self.token

        chain = self.chain

        symbol: None | str
        symbol = self.symbol

        risk: None | str
        if isinstance(self.risk, RiskBand):
            risk = self.risk.value
        else:
            risk = self.risk

        exit_risk: None | str
        if isinstance(self.exit_risk, RiskBand):
            exit_risk = self.exit_risk.value
        else:
            exit_risk = self.exit_risk

        flags = self.flags



        exposure_share_pct = self.exposure_share_pct

        unrealised: None | str
        if isinstance(self.unrealised, ReturnBand):
            unrealised = self.unrealised.value
        else:
            unrealised = self.unrealised


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "token": token,
            "chain": chain,
            "symbol": symbol,
            "risk": risk,
            "exitRisk": exit_risk,
            "flags": flags,
            "exposureSharePct": exposure_share_pct,
            "unrealised": unrealised,
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


        def _parse_risk(data: object) -> None | RiskBand:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                risk_type_0 = RiskBand(data)



                return risk_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RiskBand, data)

        risk = _parse_risk(d.pop("risk"))


        def _parse_exit_risk(data: object) -> None | RiskBand:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                exit_risk_type_0 = RiskBand(data)



                return exit_risk_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RiskBand, data)

        exit_risk = _parse_exit_risk(d.pop("exitRisk"))


        flags = cast(list[str], d.pop("flags"))


        exposure_share_pct = d.pop("exposureSharePct")

        def _parse_unrealised(data: object) -> None | ReturnBand:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                unrealised_type_0 = ReturnBand(data)



                return unrealised_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReturnBand, data)

        unrealised = _parse_unrealised(d.pop("unrealised"))


        portfolio_position = cls(
            token=token,
            chain=chain,
            symbol=symbol,
            risk=risk,
            exit_risk=exit_risk,
            flags=flags,
            exposure_share_pct=exposure_share_pct,
            unrealised=unrealised,
        )


        portfolio_position.additional_properties = d
        return portfolio_position

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
