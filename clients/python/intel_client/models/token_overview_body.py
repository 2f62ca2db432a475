from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.token_overview_body_chain import TokenOverviewBodyChain
from ..types import UNSET, Unset






T = TypeVar("T", bound="TokenOverviewBody")



@_attrs_define
class TokenOverviewBody:
    """ 
        Attributes:
            token (str): 0x-prefixed 20-byte hex address, lowercase; a mixed-case address is accepted too when it passes the
                EIP-55 checksum Example: 0xabababababababababababababababababababab.
            chain (TokenOverviewBodyChain | Unset): Chain slug; defaults to the configured default chain.
            sample (int | Unset): how many of the most recent distinct buyers are graded (10..200, default 50) Default: 50.
     """

    token: str
    chain: TokenOverviewBodyChain | Unset = UNSET
    sample: int | Unset = 50





    def to_dict(self) -> dict[str, Any]:
        token = self.token

        chain: str | Unset = UNSET
        if not isinstance(self.chain, Unset):
            chain = self.chain.value


        sample = self.sample


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "token": token,
        })
        if chain is not UNSET:
            field_dict["chain"] = chain
        if sample is not UNSET:
            field_dict["sample"] = sample

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        token = d.pop("token")

        _chain = d.pop("chain", UNSET)
        chain: TokenOverviewBodyChain | Unset
        if isinstance(_chain,  Unset):
            chain = UNSET
        else:
            chain = TokenOverviewBodyChain(_chain)




        sample = d.pop("sample", UNSET)

        token_overview_body = cls(
            token=token,
            chain=chain,
            sample=sample,
        )

        return token_overview_body

