from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.wallet_trades_body_chain import WalletTradesBodyChain
from ..models.wallet_trades_body_status import WalletTradesBodyStatus
from ..types import UNSET, Unset






T = TypeVar("T", bound="WalletTradesBody")



@_attrs_define
class WalletTradesBody:
    """ 
        Attributes:
            wallet (str): 0x-prefixed 20-byte hex address, lowercase; a mixed-case address is accepted too when it passes
                the EIP-55 checksum Example: 0xabababababababababababababababababababab.
            chain (WalletTradesBodyChain | Unset): Chain slug; defaults to the configured default chain.
            limit (int | Unset): how many tokens (1..30, default 20) Default: 20.
            cursor (str | Unset): the `next` of the previous page; omitted: the first page
            status (WalletTradesBodyStatus | Unset): only open or only closed positions
     """

    wallet: str
    chain: WalletTradesBodyChain | Unset = UNSET
    limit: int | Unset = 20
    cursor: str | Unset = UNSET
    status: WalletTradesBodyStatus | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        wallet = self.wallet

        chain: str | Unset = UNSET
        if not isinstance(self.chain, Unset):
            chain = self.chain.value


        limit = self.limit

        cursor = self.cursor

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
            "wallet": wallet,
        })
        if chain is not UNSET:
            field_dict["chain"] = chain
        if limit is not UNSET:
            field_dict["limit"] = limit
        if cursor is not UNSET:
            field_dict["cursor"] = cursor
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        wallet = d.pop("wallet")

        _chain = d.pop("chain", UNSET)
        chain: WalletTradesBodyChain | Unset
        if isinstance(_chain,  Unset):
            chain = UNSET
        else:
            chain = WalletTradesBodyChain(_chain)




        limit = d.pop("limit", UNSET)

        cursor = d.pop("cursor", UNSET)

        _status = d.pop("status", UNSET)
        status: WalletTradesBodyStatus | Unset
        if isinstance(_status,  Unset):
            status = UNSET
        else:
            status = WalletTradesBodyStatus(_status)




        wallet_trades_body = cls(
            wallet=wallet,
            chain=chain,
            limit=limit,
            cursor=cursor,
            status=status,
        )

        return wallet_trades_body

