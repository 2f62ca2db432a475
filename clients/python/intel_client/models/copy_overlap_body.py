from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.copy_overlap_body_chain import CopyOverlapBodyChain
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CopyOverlapBody")



@_attrs_define
class CopyOverlapBody:
    """ 
        Attributes:
            wallets (list[str]):
            chain (CopyOverlapBodyChain | Unset): Chain slug; defaults to the configured default chain.
     """

    wallets: list[str]
    chain: CopyOverlapBodyChain | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        wallets = self.wallets



        chain: str | Unset = UNSET
        if not isinstance(self.chain, Unset):
            chain = self.chain.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
            "wallets": wallets,
        })
        if chain is not UNSET:
            field_dict["chain"] = chain

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        wallets = cast(list[str], d.pop("wallets"))


        _chain = d.pop("chain", UNSET)
        chain: CopyOverlapBodyChain | Unset
        if isinstance(_chain,  Unset):
            chain = UNSET
        else:
            chain = CopyOverlapBodyChain(_chain)




        copy_overlap_body = cls(
            wallets=wallets,
            chain=chain,
        )

        return copy_overlap_body

