from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="CopyOverlapResponseSharedItem")



@_attrs_define
class CopyOverlapResponseSharedItem:
    """ 
        Attributes:
            token (str):
            chain (str):
            symbol (None | str):
            leaders (int):
            wallets (list[str]):
     """

    token: str
    chain: str
    symbol: None | str
    leaders: int
    wallets: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        token = self.token

        chain = self.chain

        symbol: None | str
        symbol = self.symbol

        leaders = self.leaders

        wallets = self.wallets




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "token": token,
            "chain": chain,
            "symbol": symbol,
            "leaders": leaders,
            "wallets": wallets,
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


        leaders = d.pop("leaders")

        wallets = cast(list[str], d.pop("wallets"))


        copy_overlap_response_shared_item = cls(
            token=token,
            chain=chain,
            symbol=symbol,
            leaders=leaders,
            wallets=wallets,
        )


        copy_overlap_response_shared_item.additional_properties = d
        return copy_overlap_response_shared_item

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
