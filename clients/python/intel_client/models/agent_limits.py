from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.verdict import Verdict
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="AgentLimits")



@_attrs_define
class AgentLimits:
    """ 
        Attributes:
            max_notional_usd (float): USD per copied buy at most
            daily_cap_usd (float): USD of copied buys per UTC day at most
            max_open_positions (int):
            max_slippage_bps (int):
            min_leader_grade (Verdict):  Default: Verdict.WATCH.
            expires_at (int):
            allow (list[str] | Unset):
            deny (list[str] | Unset):
     """

    max_notional_usd: float
    daily_cap_usd: float
    max_open_positions: int
    max_slippage_bps: int
    expires_at: int
    min_leader_grade: Verdict = Verdict.WATCH
    allow: list[str] | Unset = UNSET
    deny: list[str] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        max_notional_usd = self.max_notional_usd

        daily_cap_usd = self.daily_cap_usd

        max_open_positions = self.max_open_positions

        max_slippage_bps = self.max_slippage_bps

        min_leader_grade = self.min_leader_grade.value

        expires_at = self.expires_at

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




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "maxNotionalUsd": max_notional_usd,
            "dailyCapUsd": daily_cap_usd,
            "maxOpenPositions": max_open_positions,
            "maxSlippageBps": max_slippage_bps,
            "minLeaderGrade": min_leader_grade,
            "expiresAt": expires_at,
        })
        if allow is not UNSET:
            field_dict["allow"] = allow
        if deny is not UNSET:
            field_dict["deny"] = deny

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        max_notional_usd = d.pop("maxNotionalUsd")

        daily_cap_usd = d.pop("dailyCapUsd")

        max_open_positions = d.pop("maxOpenPositions")

        max_slippage_bps = d.pop("maxSlippageBps")

        min_leader_grade = Verdict(d.pop("minLeaderGrade"))




        expires_at = d.pop("expiresAt")

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


        agent_limits = cls(
            max_notional_usd=max_notional_usd,
            daily_cap_usd=daily_cap_usd,
            max_open_positions=max_open_positions,
            max_slippage_bps=max_slippage_bps,
            min_leader_grade=min_leader_grade,
            expires_at=expires_at,
            allow=allow,
            deny=deny,
        )

        return agent_limits

