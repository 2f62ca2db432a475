from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.copy_agent_list_response_agents_item import CopyAgentListResponseAgentsItem





T = TypeVar("T", bound="CopyAgentListResponse")



@_attrs_define
class CopyAgentListResponse:
    """ 
        Attributes:
            agents (list[CopyAgentListResponseAgentsItem]):
            next_ (None | str): pass as `cursor` for the next page; null on the last page. Opaque: the position after the
                last item, stable when the list changes between calls
     """

    agents: list[CopyAgentListResponseAgentsItem]
    next_: None | str





    def to_dict(self) -> dict[str, Any]:
        from ..models.copy_agent_list_response_agents_item import CopyAgentListResponseAgentsItem # noqa: PLC0415
        agents = []
        for agents_item_data in self.agents:
            agents_item = agents_item_data.to_dict()
            agents.append(agents_item)



        next_: None | str
        next_ = self.next_


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "agents": agents,
            "next": next_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.copy_agent_list_response_agents_item import CopyAgentListResponseAgentsItem # noqa: PLC0415
        d = dict(src_dict)
        agents = []
        _agents = d.pop("agents")
        for agents_item_data in (_agents):
            agents_item = CopyAgentListResponseAgentsItem.from_dict(agents_item_data)



            agents.append(agents_item)


        def _parse_next_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_ = _parse_next_(d.pop("next"))


        copy_agent_list_response = cls(
            agents=agents,
            next_=next_,
        )

        return copy_agent_list_response

