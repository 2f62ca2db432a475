from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.perp_wallet_body_venue import PerpWalletBodyVenue
from ..types import UNSET, Unset






T = TypeVar("T", bound="PerpWalletBody")



@_attrs_define
class PerpWalletBody:
    """ 
        Attributes:
            wallet (str): 0x-prefixed 20-byte hex address, lowercase; a mixed-case address is accepted too when it passes
                the EIP-55 checksum Example: 0xabababababababababababababababababababab.
            venue (PerpWalletBodyVenue | Unset): Perpetuals venue; defaults to `hyperliquid` when the perps adapter is
                configured, else `sim` (the venue simulator).
     """

    wallet: str
    venue: PerpWalletBodyVenue | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        wallet = self.wallet

        venue: str | Unset = UNSET
        if not isinstance(self.venue, Unset):
            venue = self.venue.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
            "wallet": wallet,
        })
        if venue is not UNSET:
            field_dict["venue"] = venue

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        wallet = d.pop("wallet")

        _venue = d.pop("venue", UNSET)
        venue: PerpWalletBodyVenue | Unset
        if isinstance(_venue,  Unset):
            venue = UNSET
        else:
            venue = PerpWalletBodyVenue(_venue)




        perp_wallet_body = cls(
            wallet=wallet,
            venue=venue,
        )

        return perp_wallet_body

