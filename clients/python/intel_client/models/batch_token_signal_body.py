from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.batch_token_signal_body_chain import BatchTokenSignalBodyChain
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="BatchTokenSignalBody")



@_attrs_define
class BatchTokenSignalBody:
    """ 
        Attributes:
            tokens (list[str]): 1..100 token addresses of one chain; each is answered in its place, a malformed one with its
                own invalid_address error
            chain (BatchTokenSignalBodyChain | Unset): Chain slug; defaults to the configured default chain.
     """

    tokens: list[str]
    chain: BatchTokenSignalBodyChain | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        tokens = self.tokens



        chain: str | Unset = UNSET
        if not isinstance(self.chain, Unset):
            chain = self.chain.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
            "tokens": tokens,
        })
        if chain is not UNSET:
            field_dict["chain"] = chain

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        tokens = cast(list[str], d.pop("tokens"))


        _chain = d.pop("chain", UNSET)
        chain: BatchTokenSignalBodyChain | Unset
        if isinstance(_chain,  Unset):
            chain = UNSET
        else:
            chain = BatchTokenSignalBodyChain(_chain)




        batch_token_signal_body = cls(
            tokens=tokens,
            chain=chain,
        )

        return batch_token_signal_body

