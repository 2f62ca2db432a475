from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.copy_agent_dry_run_body_limits_min_leader_grade import CopyAgentDryRunBodyLimitsMinLeaderGrade
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CopyAgentDryRunBodyLimits")



@_attrs_define
class CopyAgentDryRunBodyLimits:
    """ 
        Attributes:
            max_notional_usd (float): the most a copied buy spends in USD
            daily_cap_usd (float): the most copied buys spend per UTC day in USD
            expires_at (int): hard expiry, unix seconds (at most a year ahead): nothing is submitted afterwards
            max_open_positions (int | Unset): copied positions open at once (1..100, default 5) Default: 5.
            max_slippage_bps (int | Unset): accepted price movement of a copied trade, basis points (1..5000, default 100)
                Default: 100.
            allow (list[str] | Unset): only these tokens, coins (hyperliquid) or outcome token ids (polymarket), at most 200
            deny (list[str] | Unset): never these tokens, coins (hyperliquid) or outcome token ids (polymarket), at most 200
            min_leader_grade (CopyAgentDryRunBodyLimitsMinLeaderGrade | Unset): the leader's grade at a trade must be at
                least this (unrated < avoid < watch < mirror-worthy); default watch Default:
                CopyAgentDryRunBodyLimitsMinLeaderGrade.WATCH.
     """

    max_notional_usd: float
    daily_cap_usd: float
    expires_at: int
    max_open_positions: int | Unset = 5
    max_slippage_bps: int | Unset = 100
    allow: list[str] | Unset = UNSET
    deny: list[str] | Unset = UNSET
    min_leader_grade: CopyAgentDryRunBodyLimitsMinLeaderGrade | Unset = CopyAgentDryRunBodyLimitsMinLeaderGrade.WATCH





    def to_dict(self) -> dict[str, Any]:
        max_notional_usd = self.max_notional_usd

        daily_cap_usd = self.daily_cap_usd

        expires_at = self.expires_at

        max_open_positions = self.max_open_positions

        max_slippage_bps = self.max_slippage_bps

        allow: list[str] | Unset = UNSET
        if not isinstance(self.allow, Unset):
            allow = []
            for allow_item_data in self.allow:
                allow_item: str
                allow_item = allow_item_data
                allow.append(allow_item)



        deny: list[str] | Unset = UNSET
        if not isinstance(self.deny, Unset):
            deny = []
            for deny_item_data in self.deny:
                deny_item: str
                deny_item = deny_item_data
                deny.append(deny_item)



        min_leader_grade: str | Unset = UNSET
        if not isinstance(self.min_leader_grade, Unset):
            min_leader_grade = self.min_leader_grade.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
            "maxNotionalUsd": max_notional_usd,
            "dailyCapUsd": daily_cap_usd,
            "expiresAt": expires_at,
        })
        if max_open_positions is not UNSET:
            field_dict["maxOpenPositions"] = max_open_positions
        if max_slippage_bps is not UNSET:
            field_dict["maxSlippageBps"] = max_slippage_bps
        if allow is not UNSET:
            field_dict["allow"] = allow
        if deny is not UNSET:
            field_dict["deny"] = deny
        if min_leader_grade is not UNSET:
            field_dict["minLeaderGrade"] = min_leader_grade

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        max_notional_usd = d.pop("maxNotionalUsd")

        daily_cap_usd = d.pop("dailyCapUsd")

        expires_at = d.pop("expiresAt")

        max_open_positions = d.pop("maxOpenPositions", UNSET)

        max_slippage_bps = d.pop("maxSlippageBps", UNSET)

        _allow = d.pop("allow", UNSET)
        allow: list[str] | Unset = UNSET
        if _allow is not UNSET:
            allow = []
            for allow_item_data in _allow:
                def _parse_allow_item(data: object) -> str:
                    return cast(str, data)

                allow_item = _parse_allow_item(allow_item_data)

                allow.append(allow_item)


        _deny = d.pop("deny", UNSET)
        deny: list[str] | Unset = UNSET
        if _deny is not UNSET:
            deny = []
            for deny_item_data in _deny:
                def _parse_deny_item(data: object) -> str:
                    return cast(str, data)

                deny_item = _parse_deny_item(deny_item_data)

                deny.append(deny_item)


        _min_leader_grade = d.pop("minLeaderGrade", UNSET)
        min_leader_grade: CopyAgentDryRunBodyLimitsMinLeaderGrade | Unset
        if isinstance(_min_leader_grade,  Unset):
            min_leader_grade = UNSET
        else:
            min_leader_grade = CopyAgentDryRunBodyLimitsMinLeaderGrade(_min_leader_grade)




        copy_agent_dry_run_body_limits = cls(
            max_notional_usd=max_notional_usd,
            daily_cap_usd=daily_cap_usd,
            expires_at=expires_at,
            max_open_positions=max_open_positions,
            max_slippage_bps=max_slippage_bps,
            allow=allow,
            deny=deny,
            min_leader_grade=min_leader_grade,
        )

        return copy_agent_dry_run_body_limits

