from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.execution import Execution





T = TypeVar("T", bound="CopyAgentExecutionsResponse")



@_attrs_define
class CopyAgentExecutionsResponse:
    """ 
        Attributes:
            agent_id (str):
            executions (list[Execution]):
            next_ (None | str): pass as `cursor` for the next page; null on the last page. Opaque: the position after the
                last item, stable when the list changes between calls
     """

    agent_id: str
    executions: list[Execution]
    next_: None | str





    def to_dict(self) -> dict[str, Any]:
        from ..models.execution import Execution # noqa: PLC0415
        agent_id = self.agent_id

        executions = []
        for executions_item_data in self.executions:
            executions_item = executions_item_data.to_dict()
            executions.append(executions_item)



        next_: None | str
        next_ = self.next_


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "agentId": agent_id,
            "executions": executions,
            "next": next_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.execution import Execution # noqa: PLC0415
        d = dict(src_dict)
        agent_id = d.pop("agentId")

        executions = []
        _executions = d.pop("executions")
        for executions_item_data in (_executions):
            executions_item = Execution.from_dict(executions_item_data)



            executions.append(executions_item)


        def _parse_next_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_ = _parse_next_(d.pop("next"))


        copy_agent_executions_response = cls(
            agent_id=agent_id,
            executions=executions,
            next_=next_,
        )

        return copy_agent_executions_response

