from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="WalletTradesResponseTotals")



@_attrs_define
class WalletTradesResponseTotals:
    """ 
        Attributes:
            tokens (int):
            open_ (int):
            closed (int):
            winning_tokens (int):
            losing_tokens (int):
     """

    tokens: int
    open_: int
    closed: int
    winning_tokens: int
    losing_tokens: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        tokens = self.tokens

        open_ = self.open_

        closed = self.closed

        winning_tokens = self.winning_tokens

        losing_tokens = self.losing_tokens


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "tokens": tokens,
            "open": open_,
            "closed": closed,
            "winningTokens": winning_tokens,
            "losingTokens": losing_tokens,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        tokens = d.pop("tokens")

        open_ = d.pop("open")

        closed = d.pop("closed")

        winning_tokens = d.pop("winningTokens")

        losing_tokens = d.pop("losingTokens")

        wallet_trades_response_totals = cls(
            tokens=tokens,
            open_=open_,
            closed=closed,
            winning_tokens=winning_tokens,
            losing_tokens=losing_tokens,
        )


        wallet_trades_response_totals.additional_properties = d
        return wallet_trades_response_totals

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
