from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="LaunchBuyersSnipers")



@_attrs_define
class LaunchBuyersSnipers:
    """ 
        Attributes:
            wallets (int):
            supply_share_pct (float):
     """

    wallets: int
    supply_share_pct: float





    def to_dict(self) -> dict[str, Any]:
        wallets = self.wallets

        supply_share_pct = self.supply_share_pct


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "wallets": wallets,
            "supplySharePct": supply_share_pct,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        wallets = d.pop("wallets")

        supply_share_pct = d.pop("supplySharePct")

        launch_buyers_snipers = cls(
            wallets=wallets,
            supply_share_pct=supply_share_pct,
        )

        return launch_buyers_snipers

