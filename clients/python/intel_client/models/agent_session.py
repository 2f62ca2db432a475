from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.agent_session_setup import AgentSessionSetup





T = TypeVar("T", bound="AgentSession")



@_attrs_define
class AgentSession:
    """ 
        Attributes:
            account (str):
            session_key (str):
            setup (AgentSessionSetup):
     """

    account: str
    session_key: str
    setup: AgentSessionSetup





    def to_dict(self) -> dict[str, Any]:
        from ..models.agent_session_setup import AgentSessionSetup # noqa: PLC0415
        account = self.account

        session_key = self.session_key

        setup = self.setup.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "account": account,
            "sessionKey": session_key,
            "setup": setup,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.agent_session_setup import AgentSessionSetup # noqa: PLC0415
        d = dict(src_dict)
        account = d.pop("account")

        session_key = d.pop("sessionKey")

        setup = AgentSessionSetup.from_dict(d.pop("setup"))




        agent_session = cls(
            account=account,
            session_key=session_key,
            setup=setup,
        )

        return agent_session

