from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.risk_band import RiskBand
from typing import cast






T = TypeVar("T", bound="TraderBoardResponseHoldingItem")



@_attrs_define
class TraderBoardResponseHoldingItem:
    """ 
        Attributes:
            token (str):
            chain (str):
            symbol (None | str):
            mirror_worthy_holders (int):
            risk (None | RiskBand):
     """

    token: str
    chain: str
    symbol: None | str
    mirror_worthy_holders: int
    risk: None | RiskBand
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        token = self.token

        chain = self.chain

        symbol: None | str
        symbol = self.symbol

        mirror_worthy_holders = self.mirror_worthy_holders

        risk: None | str
        if isinstance(self.risk, RiskBand):
            risk = self.risk.value
        else:
            risk = self.risk


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "token": token,
            "chain": chain,
            "symbol": symbol,
            "mirrorWorthyHolders": mirror_worthy_holders,
            "risk": risk,
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


        mirror_worthy_holders = d.pop("mirrorWorthyHolders")

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


        trader_board_response_holding_item = cls(
            token=token,
            chain=chain,
            symbol=symbol,
            mirror_worthy_holders=mirror_worthy_holders,
            risk=risk,
        )


        trader_board_response_holding_item.additional_properties = d
        return trader_board_response_holding_item

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
