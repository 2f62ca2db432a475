from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.batch_token_intel_body_chain import BatchTokenIntelBodyChain
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="BatchTokenIntelBody")



@_attrs_define
class BatchTokenIntelBody:
    """ 
        Attributes:
            tokens (list[str]): 1..100 token addresses of one chain; each is answered in its place, a malformed one with its
                own invalid_address error
            chain (BatchTokenIntelBodyChain | Unset): Chain slug; defaults to the configured default chain.
            size_usd (float | Unset): position size in USD for entry and exit impact (default 1000)
     """

    tokens: list[str]
    chain: BatchTokenIntelBodyChain | Unset = UNSET
    size_usd: float | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        tokens = self.tokens



        chain: str | Unset = UNSET
        if not isinstance(self.chain, Unset):
            chain = self.chain.value


        size_usd = self.size_usd


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "tokens": tokens,
        })
        if chain is not UNSET:
            field_dict["chain"] = chain
        if size_usd is not UNSET:
            field_dict["sizeUsd"] = size_usd

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        tokens = cast(list[str], d.pop("tokens"))


        _chain = d.pop("chain", UNSET)
        chain: BatchTokenIntelBodyChain | Unset
        if isinstance(_chain,  Unset):
            chain = UNSET
        else:
            chain = BatchTokenIntelBodyChain(_chain)




        size_usd = d.pop("sizeUsd", UNSET)

        batch_token_intel_body = cls(
            tokens=tokens,
            chain=chain,
            size_usd=size_usd,
        )

        return batch_token_intel_body

