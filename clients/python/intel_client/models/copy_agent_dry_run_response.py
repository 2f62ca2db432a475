from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.copy_agent_dry_run_response_by_reason import CopyAgentDryRunResponseByReason
  from ..models.copy_agent_dry_run_response_items_item import CopyAgentDryRunResponseItemsItem





T = TypeVar("T", bound="CopyAgentDryRunResponse")



@_attrs_define
class CopyAgentDryRunResponse:
    """ 
        Attributes:
            chain (str):
            leader (str):
            trades (int):
            copied (int):
            skipped (int):
            notional_usd (float):
            by_reason (CopyAgentDryRunResponseByReason):
            items (list[CopyAgentDryRunResponseItemsItem]):
            note (str):
     """

    chain: str
    leader: str
    trades: int
    copied: int
    skipped: int
    notional_usd: float
    by_reason: CopyAgentDryRunResponseByReason
    items: list[CopyAgentDryRunResponseItemsItem]
    note: str





    def to_dict(self) -> dict[str, Any]:
        from ..models.copy_agent_dry_run_response_by_reason import CopyAgentDryRunResponseByReason # noqa: PLC0415
        from ..models.copy_agent_dry_run_response_items_item import CopyAgentDryRunResponseItemsItem # noqa: PLC0415
        chain = self.chain

        leader = self.leader

        trades = self.trades

        copied = self.copied

        skipped = self.skipped

        notional_usd = self.notional_usd

        by_reason = self.by_reason.to_dict()

        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)



        note = self.note


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "chain": chain,
            "leader": leader,
            "trades": trades,
            "copied": copied,
            "skipped": skipped,
            "notionalUsd": notional_usd,
            "byReason": by_reason,
            "items": items,
            "note": note,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.copy_agent_dry_run_response_by_reason import CopyAgentDryRunResponseByReason # noqa: PLC0415
        from ..models.copy_agent_dry_run_response_items_item import CopyAgentDryRunResponseItemsItem # noqa: PLC0415
        d = dict(src_dict)
        chain = d.pop("chain")

        leader = d.pop("leader")

        trades = d.pop("trades")

        copied = d.pop("copied")

        skipped = d.pop("skipped")

        notional_usd = d.pop("notionalUsd")

        by_reason = CopyAgentDryRunResponseByReason.from_dict(d.pop("byReason"))




        items = []
        _items = d.pop("items")
        for items_item_data in (_items):
            items_item = CopyAgentDryRunResponseItemsItem.from_dict(items_item_data)



            items.append(items_item)


        note = d.pop("note")

        copy_agent_dry_run_response = cls(
            chain=chain,
            leader=leader,
            trades=trades,
            copied=copied,
            skipped=skipped,
            notional_usd=notional_usd,
            by_reason=by_reason,
            items=items,
            note=note,
        )

        return copy_agent_dry_run_response

