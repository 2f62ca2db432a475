from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.wallet_health_body_chain import WalletHealthBodyChain
from ..types import UNSET, Unset






T = TypeVar("T", bound="WalletHealthBody")



@_attrs_define
class WalletHealthBody:
    """ 
        Attributes:
            wallet (str): 0x-prefixed 20-byte hex address, lowercase; a mixed-case address is accepted too when it passes
                the EIP-55 checksum Example: 0xabababababababababababababababababababab.
            chain (WalletHealthBodyChain | Unset): Chain slug; defaults to the configured default chain.
     """

    wallet: str
    chain: WalletHealthBodyChain | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        wallet = self.wallet

        chain: str | Unset = UNSET
        if not isinstance(self.chain, Unset):
            chain = self.chain.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
            "wallet": wallet,
        })
        if chain is not UNSET:
            field_dict["chain"] = chain

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        wallet = d.pop("wallet")

        _chain = d.pop("chain", UNSET)
        chain: WalletHealthBodyChain | Unset
        if isinstance(_chain,  Unset):
            chain = UNSET
        else:
            chain = WalletHealthBodyChain(_chain)




        wallet_health_body = cls(
            wallet=wallet,
            chain=chain,
        )

        return wallet_health_body

