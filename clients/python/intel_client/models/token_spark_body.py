from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.token_spark_body_chain import TokenSparkBodyChain
from ..types import UNSET, Unset






T = TypeVar("T", bound="TokenSparkBody")



@_attrs_define
class TokenSparkBody:
    """ 
        Attributes:
            token (str): 0x-prefixed 20-byte hex address, lowercase; a mixed-case address is accepted too when it passes the
                EIP-55 checksum Example: 0xabababababababababababababababababababab.
            chain (TokenSparkBodyChain | Unset): Chain slug; defaults to the configured default chain.
            hours (float | Unset): hours of hourly closes (6..72, default 48) Default: 48.0.
     """

    token: str
    chain: TokenSparkBodyChain | Unset = UNSET
    hours: float | Unset = 48.0





    def to_dict(self) -> dict[str, Any]:
        token = self.token

        chain: str | Unset = UNSET
        if not isinstance(self.chain, Unset):
            chain = self.chain.value


        hours = self.hours


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "token": token,
        })
        if chain is not UNSET:
            field_dict["chain"] = chain
        if hours is not UNSET:
            field_dict["hours"] = hours

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        token = d.pop("token")

        _chain = d.pop("chain", UNSET)
        chain: TokenSparkBodyChain | Unset
        if isinstance(_chain,  Unset):
            chain = UNSET
        else:
            chain = TokenSparkBodyChain(_chain)




        hours = d.pop("hours", UNSET)

        token_spark_body = cls(
            token=token,
            chain=chain,
            hours=hours,
        )

        return token_spark_body

