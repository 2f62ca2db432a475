from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.token_valuation_body_chain import TokenValuationBodyChain
from ..types import UNSET, Unset






T = TypeVar("T", bound="TokenValuationBody")



@_attrs_define
class TokenValuationBody:
    """ 
        Attributes:
            token (str): 0x-prefixed 20-byte hex address, lowercase; a mixed-case address is accepted too when it passes the
                EIP-55 checksum Example: 0xabababababababababababababababababababab.
            chain (TokenValuationBodyChain | Unset): Chain slug; defaults to the configured default chain.
     """

    token: str
    chain: TokenValuationBodyChain | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        token = self.token

        chain: str | Unset = UNSET
        if not isinstance(self.chain, Unset):
            chain = self.chain.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
            "token": token,
        })
        if chain is not UNSET:
            field_dict["chain"] = chain

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        token = d.pop("token")

        _chain = d.pop("chain", UNSET)
        chain: TokenValuationBodyChain | Unset
        if isinstance(_chain,  Unset):
            chain = UNSET
        else:
            chain = TokenValuationBodyChain(_chain)




        token_valuation_body = cls(
            token=token,
            chain=chain,
        )

        return token_valuation_body

