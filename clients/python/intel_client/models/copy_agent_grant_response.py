from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.copy_agent_grant_response_typed_data import CopyAgentGrantResponseTypedData





T = TypeVar("T", bound="CopyAgentGrantResponse")



@_attrs_define
class CopyAgentGrantResponse:
    """ 
        Attributes:
            agent_id (str):
            session_key (str):
            typed_data (CopyAgentGrantResponseTypedData): EIP-712 typed data (eth_signTypedData_v4): venue, chain, leader,
                account, session key, caps, limits, expiry, timestamp; its signature is the X-Wallet-Signature of
                /copy/agent/create
     """

    agent_id: str
    session_key: str
    typed_data: CopyAgentGrantResponseTypedData





    def to_dict(self) -> dict[str, Any]:
        from ..models.copy_agent_grant_response_typed_data import CopyAgentGrantResponseTypedData # noqa: PLC0415
        agent_id = self.agent_id

        session_key = self.session_key

        typed_data = self.typed_data.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "agentId": agent_id,
            "sessionKey": session_key,
            "typedData": typed_data,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.copy_agent_grant_response_typed_data import CopyAgentGrantResponseTypedData # noqa: PLC0415
        d = dict(src_dict)
        agent_id = d.pop("agentId")

        session_key = d.pop("sessionKey")

        typed_data = CopyAgentGrantResponseTypedData.from_dict(d.pop("typedData"))




        copy_agent_grant_response = cls(
            agent_id=agent_id,
            session_key=session_key,
            typed_data=typed_data,
        )

        return copy_agent_grant_response

