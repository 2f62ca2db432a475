from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.token_intel_body_chain import TokenIntelBodyChain
from ..types import UNSET, Unset






T = TypeVar("T", bound="TokenIntelBody")



@_attrs_define
class TokenIntelBody:
    """ 
        Attributes:
            token (str): 0x-prefixed 20-byte hex address, lowercase; a mixed-case address is accepted too when it passes the
                EIP-55 checksum Example: 0xabababababababababababababababababababab.
            chain (TokenIntelBodyChain | Unset): Chain slug; defaults to the configured default chain.
            size_usd (float | Unset): position size in USD for entry and exit impact (default 1000)
     """

    token: str
    chain: TokenIntelBodyChain | Unset = UNSET
    size_usd: float | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        token = self.token

        chain: str | Unset = UNSET
        if not isinstance(self.chain, Unset):
            chain = self.chain.value


        size_usd = self.size_usd


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "token": token,
        })
        if chain is not UNSET:
            field_dict["chain"] = chain
        if size_usd is not UNSET:
            field_dict["sizeUsd"] = size_usd

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        token = d.pop("token")

        _chain = d.pop("chain", UNSET)
        chain: TokenIntelBodyChain | Unset
        if isinstance(_chain,  Unset):
            chain = UNSET
        else:
            chain = TokenIntelBodyChain(_chain)




        size_usd = d.pop("sizeUsd", UNSET)

        token_intel_body = cls(
            token=token,
            chain=chain,
            size_usd=size_usd,
        )

        return token_intel_body

