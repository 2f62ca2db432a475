from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.copy_agent_executions_body_status import CopyAgentExecutionsBodyStatus
from ..types import UNSET, Unset






T = TypeVar("T", bound="CopyAgentExecutionsBody")



@_attrs_define
class CopyAgentExecutionsBody:
    """ 
        Attributes:
            agent_id (str):
            status (CopyAgentExecutionsBodyStatus | Unset): only executions in this status
            limit (int | Unset): how many executions (1..100, default 20) Default: 20.
            cursor (str | Unset): the `next` of the previous page; omitted: the first page
     """

    agent_id: str
    status: CopyAgentExecutionsBodyStatus | Unset = UNSET
    limit: int | Unset = 20
    cursor: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        agent_id = self.agent_id

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value


        limit = self.limit

        cursor = self.cursor


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "agentId": agent_id,
        })
        if status is not UNSET:
            field_dict["status"] = status
        if limit is not UNSET:
            field_dict["limit"] = limit
        if cursor is not UNSET:
            field_dict["cursor"] = cursor

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent_id = d.pop("agentId")

        _status = d.pop("status", UNSET)
        status: CopyAgentExecutionsBodyStatus | Unset
        if isinstance(_status,  Unset):
            status = UNSET
        else:
            status = CopyAgentExecutionsBodyStatus(_status)




        limit = d.pop("limit", UNSET)

        cursor = d.pop("cursor", UNSET)

        copy_agent_executions_body = cls(
            agent_id=agent_id,
            status=status,
            limit=limit,
            cursor=cursor,
        )

        return copy_agent_executions_body

