from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="CopyAgentRevokeBody")



@_attrs_define
class CopyAgentRevokeBody:
    """ 
        Attributes:
            agent_id (str):
     """

    agent_id: str





    def to_dict(self) -> dict[str, Any]:
        agent_id = self.agent_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "agentId": agent_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent_id = d.pop("agentId")

        copy_agent_revoke_body = cls(
            agent_id=agent_id,
        )

        return copy_agent_revoke_body

