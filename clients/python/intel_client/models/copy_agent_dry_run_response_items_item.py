from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.copy_agent_dry_run_response_items_item_action import CopyAgentDryRunResponseItemsItemAction
from ..models.copy_agent_dry_run_response_items_item_decision import CopyAgentDryRunResponseItemsItemDecision
from ..models.copy_agent_dry_run_response_items_item_side import CopyAgentDryRunResponseItemsItemSide
from ..models.size_band import SizeBand
from typing import cast






T = TypeVar("T", bound="CopyAgentDryRunResponseItemsItem")



@_attrs_define
class CopyAgentDryRunResponseItemsItem:
    """ 
        Attributes:
            token (str):
            side (CopyAgentDryRunResponseItemsItemSide):
            action (CopyAgentDryRunResponseItemsItemAction):
            at (str):
            leader_size (SizeBand):
            decision (CopyAgentDryRunResponseItemsItemDecision):
            reason (None | str):
            notional_usd (float):
            detail (str):
     """

    token: str
    side: CopyAgentDryRunResponseItemsItemSide
    action: CopyAgentDryRunResponseItemsItemAction
    at: str
    leader_size: SizeBand
    decision: CopyAgentDryRunResponseItemsItemDecision
    reason: None | str
    notional_usd: float
    detail: str





    def to_dict(self) -> dict[str, Any]:
        token = self.token

        side = self.side.value

        action = self.action.value

        at = self.at

        leader_size = self.leader_size.value

        decision = self.decision.value

        reason: None | str
        reason = self.reason

        notional_usd = self.notional_usd

        detail = self.detail


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "token": token,
            "side": side,
            "action": action,
            "at": at,
            "leaderSize": leader_size,
            "decision": decision,
            "reason": reason,
            "notionalUsd": notional_usd,
            "detail": detail,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        token = d.pop("token")

        side = CopyAgentDryRunResponseItemsItemSide(d.pop("side"))




        action = CopyAgentDryRunResponseItemsItemAction(d.pop("action"))




        at = d.pop("at")

        leader_size = SizeBand(d.pop("leaderSize"))




        decision = CopyAgentDryRunResponseItemsItemDecision(d.pop("decision"))




        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))


        notional_usd = d.pop("notionalUsd")

        detail = d.pop("detail")

        copy_agent_dry_run_response_items_item = cls(
            token=token,
            side=side,
            action=action,
            at=at,
            leader_size=leader_size,
            decision=decision,
            reason=reason,
            notional_usd=notional_usd,
            detail=detail,
        )

        return copy_agent_dry_run_response_items_item

