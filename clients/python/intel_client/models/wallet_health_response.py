from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.wallet_health_response_activity import WalletHealthResponseActivity
from ..models.wallet_health_response_health import WalletHealthResponseHealth
from typing import cast

if TYPE_CHECKING:
  from ..models.wallet_health_response_flags_item import WalletHealthResponseFlagsItem





T = TypeVar("T", bound="WalletHealthResponse")



@_attrs_define
class WalletHealthResponse:
    """ 
        Attributes:
            chain (str):
            wallet (str): the wallet address (lowercase)
            as_of (str): ISO time of the last event folded into the snapshot
            age_seconds (float): seconds between asOf and the time the response was served
            health (WalletHealthResponseHealth):
            score (int):
            flags (list[WalletHealthResponseFlagsItem]):
            activity (WalletHealthResponseActivity): last trade within 1 day, 7 days, or older (chain time)
            open_positions (int):
            stale_open_positions (int):
     """

    chain: str
    wallet: str
    as_of: str
    age_seconds: float
    health: WalletHealthResponseHealth
    score: int
    flags: list[WalletHealthResponseFlagsItem]
    activity: WalletHealthResponseActivity
    open_positions: int
    stale_open_positions: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.wallet_health_response_flags_item import WalletHealthResponseFlagsItem # noqa: PLC0415
        chain = self.chain

        wallet = self.wallet

        as_of = self.as_of

        age_seconds = self.age_seconds

        health = self.health.value

        score = self.score

        flags = []
        for flags_item_data in self.flags:
            flags_item = flags_item_data.to_dict()
            flags.append(flags_item)



        activity = self.activity.value

        open_positions = self.open_positions

        stale_open_positions = self.stale_open_positions


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "wallet": wallet,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "health": health,
            "score": score,
            "flags": flags,
            "activity": activity,
            "openPositions": open_positions,
            "staleOpenPositions": stale_open_positions,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.wallet_health_response_flags_item import WalletHealthResponseFlagsItem # noqa: PLC0415
        d = dict(src_dict)
        chain = d.pop("chain")

        wallet = d.pop("wallet")

        as_of = d.pop("asOf")

        age_seconds = d.pop("ageSeconds")

        health = WalletHealthResponseHealth(d.pop("health"))




        score = d.pop("score")

        flags = []
        _flags = d.pop("flags")
        for flags_item_data in (_flags):
            flags_item = WalletHealthResponseFlagsItem.from_dict(flags_item_data)



            flags.append(flags_item)


        activity = WalletHealthResponseActivity(d.pop("activity"))




        open_positions = d.pop("openPositions")

        stale_open_positions = d.pop("staleOpenPositions")

        wallet_health_response = cls(
            chain=chain,
            wallet=wallet,
            as_of=as_of,
            age_seconds=age_seconds,
            health=health,
            score=score,
            flags=flags,
            activity=activity,
            open_positions=open_positions,
            stale_open_positions=stale_open_positions,
        )


        wallet_health_response.additional_properties = d
        return wallet_health_response

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
