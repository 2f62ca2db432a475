from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.token_price_action_body_chain import TokenPriceActionBodyChain
from ..models.token_price_action_body_resolution import TokenPriceActionBodyResolution
from ..types import UNSET, Unset






T = TypeVar("T", bound="TokenPriceActionBody")



@_attrs_define
class TokenPriceActionBody:
    """ 
        Attributes:
            token (str): 0x-prefixed 20-byte hex address, lowercase; a mixed-case address is accepted too when it passes the
                EIP-55 checksum Example: 0xabababababababababababababababababababab.
            chain (TokenPriceActionBodyChain | Unset): Chain slug; defaults to the configured default chain.
            hours (float | Unset): hours of history (1..168, default 24) Default: 24.0.
            resolution (TokenPriceActionBodyResolution | Unset): bar resolution: 5m | 15m | 1h | 4h (default 1h)
     """

    token: str
    chain: TokenPriceActionBodyChain | Unset = UNSET
    hours: float | Unset = 24.0
    resolution: TokenPriceActionBodyResolution | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        token = self.token

        chain: str | Unset = UNSET
        if not isinstance(self.chain, Unset):
            chain = self.chain.value


        hours = self.hours

        resolution: str | Unset = UNSET
        if not isinstance(self.resolution, Unset):
            resolution = self.resolution.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
            "token": token,
        })
        if chain is not UNSET:
            field_dict["chain"] = chain
        if hours is not UNSET:
            field_dict["hours"] = hours
        if resolution is not UNSET:
            field_dict["resolution"] = resolution

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        token = d.pop("token")

        _chain = d.pop("chain", UNSET)
        chain: TokenPriceActionBodyChain | Unset
        if isinstance(_chain,  Unset):
            chain = UNSET
        else:
            chain = TokenPriceActionBodyChain(_chain)




        hours = d.pop("hours", UNSET)

        _resolution = d.pop("resolution", UNSET)
        resolution: TokenPriceActionBodyResolution | Unset
        if isinstance(_resolution,  Unset):
            resolution = UNSET
        else:
            resolution = TokenPriceActionBodyResolution(_resolution)




        token_price_action_body = cls(
            token=token,
            chain=chain,
            hours=hours,
            resolution=resolution,
        )

        return token_price_action_body

