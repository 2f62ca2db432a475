from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.level_band import LevelBand






T = TypeVar("T", bound="TokenHoldersInsightResponseOrganic")



@_attrs_define
class TokenHoldersInsightResponseOrganic:
    """ 
        Attributes:
            band (LevelBand):
            volume_share_pct (float):
            buyer_share_pct (float):
            bot_wallets (int):
            insider_wallets (int):
     """

    band: LevelBand
    volume_share_pct: float
    buyer_share_pct: float
    bot_wallets: int
    insider_wallets: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        band = self.band.value

        volume_share_pct = self.volume_share_pct

        buyer_share_pct = self.buyer_share_pct

        bot_wallets = self.bot_wallets

        insider_wallets = self.insider_wallets


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "band": band,
            "volumeSharePct": volume_share_pct,
            "buyerSharePct": buyer_share_pct,
            "botWallets": bot_wallets,
            "insiderWallets": insider_wallets,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        band = LevelBand(d.pop("band"))




        volume_share_pct = d.pop("volumeSharePct")

        buyer_share_pct = d.pop("buyerSharePct")

        bot_wallets = d.pop("botWallets")

        insider_wallets = d.pop("insiderWallets")

        token_holders_insight_response_organic = cls(
            band=band,
            volume_share_pct=volume_share_pct,
            buyer_share_pct=buyer_share_pct,
            bot_wallets=bot_wallets,
            insider_wallets=insider_wallets,
        )


        token_holders_insight_response_organic.additional_properties = d
        return token_holders_insight_response_organic

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
