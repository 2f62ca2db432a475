from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="CopyOverlapResponsePairsItem")



@_attrs_define
class CopyOverlapResponsePairsItem:
    """ 
        Attributes:
            wallets (list[str]): the two leaders of the pair
            shared_tokens (int):
            jaccard_pct (float):
     """

    wallets: list[str]
    shared_tokens: int
    jaccard_pct: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        wallets = self.wallets



        shared_tokens = self.shared_tokens

        jaccard_pct = self.jaccard_pct


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "wallets": wallets,
            "sharedTokens": shared_tokens,
            "jaccardPct": jaccard_pct,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        wallets = cast(list[str], d.pop("wallets"))


        shared_tokens = d.pop("sharedTokens")

        jaccard_pct = d.pop("jaccardPct")

        copy_overlap_response_pairs_item = cls(
            wallets=wallets,
            shared_tokens=shared_tokens,
            jaccard_pct=jaccard_pct,
        )


        copy_overlap_response_pairs_item.additional_properties = d
        return copy_overlap_response_pairs_item

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
