from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="LaunchBuyersBundles")



@_attrs_define
class LaunchBuyersBundles:
    """ 
        Attributes:
            count (int):
            wallets (int):
            supply_share_pct (float):
            blocks (list[float]):
     """

    count: int
    wallets: int
    supply_share_pct: float
    blocks: list[float]





    def to_dict(self) -> dict[str, Any]:
        count = self.count

        wallets = self.wallets

        supply_share_pct = self.supply_share_pct

        blocks = self.blocks




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "count": count,
            "wallets": wallets,
            "supplySharePct": supply_share_pct,
            "blocks": blocks,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        count = d.pop("count")

        wallets = d.pop("wallets")

        supply_share_pct = d.pop("supplySharePct")

        blocks = cast(list[float], d.pop("blocks"))


        launch_buyers_bundles = cls(
            count=count,
            wallets=wallets,
            supply_share_pct=supply_share_pct,
            blocks=blocks,
        )

        return launch_buyers_bundles

