from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.copy_agent_list_body_state import CopyAgentListBodyState
from ..types import UNSET, Unset






T = TypeVar("T", bound="CopyAgentListBody")



@_attrs_define
class CopyAgentListBody:
    """ 
        Attributes:
            state (CopyAgentListBodyState | Unset): only agents in this state
            limit (int | Unset): how many agents (1..100, default 20) Default: 20.
            cursor (str | Unset): the `next` of the previous page; omitted: the first page
     """

    state: CopyAgentListBodyState | Unset = UNSET
    limit: int | Unset = 20
    cursor: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        state: str | Unset = UNSET
        if not isinstance(self.state, Unset):
            state = self.state.value


        limit = self.limit

        cursor = self.cursor


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if state is not UNSET:
            field_dict["state"] = state
        if limit is not UNSET:
            field_dict["limit"] = limit
        if cursor is not UNSET:
            field_dict["cursor"] = cursor

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _state = d.pop("state", UNSET)
        state: CopyAgentListBodyState | Unset
        if isinstance(_state,  Unset):
            state = UNSET
        else:
            state = CopyAgentListBodyState(_state)




        limit = d.pop("limit", UNSET)

        cursor = d.pop("cursor", UNSET)

        copy_agent_list_body = cls(
            state=state,
            limit=limit,
            cursor=cursor,
        )

        return copy_agent_list_body

