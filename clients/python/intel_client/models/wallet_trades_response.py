from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.trade_summary import TradeSummary
  from ..models.wallet_trades_response_totals import WalletTradesResponseTotals





T = TypeVar("T", bound="WalletTradesResponse")



@_attrs_define
class WalletTradesResponse:
    """ 
        Attributes:
            chain (str):
            wallet (str): the wallet address (lowercase)
            as_of (str): ISO time of the last event folded into the snapshot
            age_seconds (float): seconds between asOf and the time the response was served
            trades (list[TradeSummary]):
            next_ (None | str): pass as `cursor` for the next page; null on the last page. Opaque: the position after the
                last item, stable when the list changes between calls
            totals (WalletTradesResponseTotals):
     """

    chain: str
    wallet: str
    as_of: str
    age_seconds: float
    trades: list[TradeSummary]
    next_: None | str
    totals: WalletTradesResponseTotals
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.trade_summary import TradeSummary # noqa: PLC0415
        from ..models.wallet_trades_response_totals import WalletTradesResponseTotals # noqa: PLC0415
        chain = self.chain

        wallet = self.wallet

        as_of = self.as_of

        age_seconds = self.age_seconds

        trades = []
        for trades_item_data in self.trades:
            trades_item = trades_item_data.to_dict()
            trades.append(trades_item)



        next_: None | str
        next_ = self.next_

        totals = self.totals.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "wallet": wallet,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "trades": trades,
            "next": next_,
            "totals": totals,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.trade_summary import TradeSummary # noqa: PLC0415
        from ..models.wallet_trades_response_totals import WalletTradesResponseTotals # noqa: PLC0415
        d = dict(src_dict)
        chain = d.pop("chain")

        wallet = d.pop("wallet")

        as_of = d.pop("asOf")

        age_seconds = d.pop("ageSeconds")

        trades = []
        _trades = d.pop("trades")
        for trades_item_data in (_trades):
            trades_item = TradeSummary.from_dict(trades_item_data)



            trades.append(trades_item)


        def _parse_next_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_ = _parse_next_(d.pop("next"))


        totals = WalletTradesResponseTotals.from_dict(d.pop("totals"))




        wallet_trades_response = cls(
            chain=chain,
            wallet=wallet,
            as_of=as_of,
            age_seconds=age_seconds,
            trades=trades,
            next_=next_,
            totals=totals,
        )


        wallet_trades_response.additional_properties = d
        return wallet_trades_response

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
