from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.agent_state import AgentState
from ..models.chain_slug import ChainSlug
from ..models.copy_agent_list_response_agents_item_chain_type_1 import CopyAgentListResponseAgentsItemChainType1
from ..models.copy_agent_list_response_agents_item_mode import CopyAgentListResponseAgentsItemMode
from ..models.execution_venue import ExecutionVenue
from typing import cast

if TYPE_CHECKING:
  from ..models.agent_limits import AgentLimits
  from ..models.agent_session import AgentSession





T = TypeVar("T", bound="CopyAgentListResponseAgentsItem")



@_attrs_define
class CopyAgentListResponseAgentsItem:
    """ 
        Attributes:
            agent_id (str):
            wallet (str):
            mode (CopyAgentListResponseAgentsItemMode):
            venue (ExecutionVenue): Execution venue; `evm-spot`: swaps from the user's ERC-7579 smart account through a
                session key the contracts limit; `hyperliquid`: perpetuals orders signed by an agent key the user approves on
                the venue (revocable, with an expiry); `polymarket` (in validation): paper only, its live trading is off (its
                orders would come from an address whose key this service holds)
            chain (ChainSlug | CopyAgentListResponseAgentsItemChainType1):
            leader (str):
            limits (AgentLimits):
            state (AgentState):
            state_reason (None | str):
            session (AgentSession | None):
            created_at (int):
            updated_at (int):
     """

    agent_id: str
    wallet: str
    mode: CopyAgentListResponseAgentsItemMode
    venue: ExecutionVenue
    chain: ChainSlug | CopyAgentListResponseAgentsItemChainType1
    leader: str
    limits: AgentLimits
    state: AgentState
    state_reason: None | str
    session: AgentSession | None
    created_at: int
    updated_at: int





    def to_dict(self) -> dict[str, Any]:
        from ..models.agent_limits import AgentLimits # noqa: PLC0415
        from ..models.agent_session import AgentSession # noqa: PLC0415
        agent_id = self.agent_id

        wallet = self.wallet

        mode = self.mode.value

        venue = self.venue.value

        chain: str
        if isinstance(self.chain, ChainSlug):
            chain = self.chain.value
        else:
            chain = self.chain.value


        leader = self.leader

        limits = self.limits.to_dict()

        state = self.state.value

        state_reason: None | str
        state_reason = self.state_reason

        session: dict[str, Any] | None
        if isinstance(self.session, AgentSession):
            session = self.session.to_dict()
        else:
            session = self.session

        created_at = self.created_at

        updated_at = self.updated_at


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "agentId": agent_id,
            "wallet": wallet,
            "mode": mode,
            "venue": venue,
            "chain": chain,
            "leader": leader,
            "limits": limits,
            "state": state,
            "stateReason": state_reason,
            "session": session,
            "createdAt": created_at,
            "updatedAt": updated_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.agent_limits import AgentLimits # noqa: PLC0415
        from ..models.agent_session import AgentSession # noqa: PLC0415
        d = dict(src_dict)
        agent_id = d.pop("agentId")

        wallet = d.pop("wallet")

        mode = CopyAgentListResponseAgentsItemMode(d.pop("mode"))




        venue = ExecutionVenue(d.pop("venue"))




        def _parse_chain(data: object) -> ChainSlug | CopyAgentListResponseAgentsItemChainType1:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                chain_type_0 = ChainSlug(data)



                return chain_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, str):
                raise TypeError()
            chain_type_1 = CopyAgentListResponseAgentsItemChainType1(data)



            return chain_type_1

        chain = _parse_chain(d.pop("chain"))


        leader = d.pop("leader")

        limits = AgentLimits.from_dict(d.pop("limits"))




        state = AgentState(d.pop("state"))




        def _parse_state_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        state_reason = _parse_state_reason(d.pop("stateReason"))


        def _parse_session(data: object) -> AgentSession | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                session_type_0 = AgentSession.from_dict(data)



                return session_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgentSession | None, data)

        session = _parse_session(d.pop("session"))


        created_at = d.pop("createdAt")

        updated_at = d.pop("updatedAt")

        copy_agent_list_response_agents_item = cls(
            agent_id=agent_id,
            wallet=wallet,
            mode=mode,
            venue=venue,
            chain=chain,
            leader=leader,
            limits=limits,
            state=state,
            state_reason=state_reason,
            session=session,
            created_at=created_at,
            updated_at=updated_at,
        )

        return copy_agent_list_response_agents_item

