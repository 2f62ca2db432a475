from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.copy_agent_create_response_agent import CopyAgentCreateResponseAgent





T = TypeVar("T", bound="CopyAgentCreateResponse")



@_attrs_define
class CopyAgentCreateResponse:
    """ 
        Attributes:
            agent (CopyAgentCreateResponseAgent):
     """

    agent: CopyAgentCreateResponseAgent





    def to_dict(self) -> dict[str, Any]:
        from ..models.copy_agent_create_response_agent import CopyAgentCreateResponseAgent # noqa: PLC0415
        agent = self.agent.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "agent": agent,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.copy_agent_create_response_agent import CopyAgentCreateResponseAgent # noqa: PLC0415
        d = dict(src_dict)
        agent = CopyAgentCreateResponseAgent.from_dict(d.pop("agent"))




        copy_agent_create_response = cls(
            agent=agent,
        )

        return copy_agent_create_response

