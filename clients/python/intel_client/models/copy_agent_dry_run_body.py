from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.copy_agent_dry_run_body_chain import CopyAgentDryRunBodyChain
from ..models.copy_agent_dry_run_body_leader_venue import CopyAgentDryRunBodyLeaderVenue
from ..models.copy_agent_dry_run_body_venue import CopyAgentDryRunBodyVenue
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.copy_agent_dry_run_body_limits import CopyAgentDryRunBodyLimits





T = TypeVar("T", bound="CopyAgentDryRunBody")



@_attrs_define
class CopyAgentDryRunBody:
    """ 
        Attributes:
            agent_id (str | Unset): an existing agent; or give the venue, chain (evm-spot) or leaderVenue, leader and limits
            venue (CopyAgentDryRunBodyVenue | Unset): without agentId: the venue the leader would be copied on; default evm-
                spot
            chain (CopyAgentDryRunBodyChain | Unset): Chain slug; defaults to the configured default chain.
            leader_venue (CopyAgentDryRunBodyLeaderVenue | Unset): hyperliquid and polymarket agents: the venue whose fills
                the leader is followed on (the agent's venue, or sim: the venue simulator, paper only); default the venue when
                its feed is ingested, else sim
            leader (str | Unset): 0x-prefixed 20-byte hex address, lowercase; a mixed-case address is accepted too when it
                passes the EIP-55 checksum Example: 0xabababababababababababababababababababab.
            limits (CopyAgentDryRunBodyLimits | Unset):
            trades (int | Unset): how many of the leader's latest trades (1..50, default 20) Default: 20.
     """

    agent_id: str | Unset = UNSET
    venue: CopyAgentDryRunBodyVenue | Unset = UNSET
    chain: CopyAgentDryRunBodyChain | Unset = UNSET
    leader_venue: CopyAgentDryRunBodyLeaderVenue | Unset = UNSET
    leader: str | Unset = UNSET
    limits: CopyAgentDryRunBodyLimits | Unset = UNSET
    trades: int | Unset = 20





    def to_dict(self) -> dict[str, Any]:
        from ..models.copy_agent_dry_run_body_limits import CopyAgentDryRunBodyLimits # noqa: PLC0415
        agent_id = self.agent_id

        venue: str | Unset = UNSET
        if not isinstance(self.venue, Unset):
            venue = self.venue.value


        chain: str | Unset = UNSET
        if not isinstance(self.chain, Unset):
            chain = self.chain.value


        leader_venue: str | Unset = UNSET
        if not isinstance(self.leader_venue, Unset):
            leader_venue = self.leader_venue.value


        leader = self.leader

        limits: dict[str, Any] | Unset = UNSET
        if not isinstance(self.limits, Unset):
            limits = self.limits.to_dict()

        trades = self.trades


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if agent_id is not UNSET:
            field_dict["agentId"] = agent_id
        if venue is not UNSET:
            field_dict["venue"] = venue
        if chain is not UNSET:
            field_dict["chain"] = chain
        if leader_venue is not UNSET:
            field_dict["leaderVenue"] = leader_venue
        if leader is not UNSET:
            field_dict["leader"] = leader
        if limits is not UNSET:
            field_dict["limits"] = limits
        if trades is not UNSET:
            field_dict["trades"] = trades

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.copy_agent_dry_run_body_limits import CopyAgentDryRunBodyLimits # noqa: PLC0415
        d = dict(src_dict)
        agent_id = d.pop("agentId", UNSET)

        _venue = d.pop("venue", UNSET)
        venue: CopyAgentDryRunBodyVenue | Unset
        if isinstance(_venue,  Unset):
            venue = UNSET
        else:
            venue = CopyAgentDryRunBodyVenue(_venue)




        _chain = d.pop("chain", UNSET)
        chain: CopyAgentDryRunBodyChain | Unset
        if isinstance(_chain,  Unset):
            chain = UNSET
        else:
            chain = CopyAgentDryRunBodyChain(_chain)




        _leader_venue = d.pop("leaderVenue", UNSET)
        leader_venue: CopyAgentDryRunBodyLeaderVenue | Unset
        if isinstance(_leader_venue,  Unset):
            leader_venue = UNSET
        else:
            leader_venue = CopyAgentDryRunBodyLeaderVenue(_leader_venue)




        leader = d.pop("leader", UNSET)

        _limits = d.pop("limits", UNSET)
        limits: CopyAgentDryRunBodyLimits | Unset
        if isinstance(_limits,  Unset):
            limits = UNSET
        else:
            limits = CopyAgentDryRunBodyLimits.from_dict(_limits)




        trades = d.pop("trades", UNSET)

        copy_agent_dry_run_body = cls(
            agent_id=agent_id,
            venue=venue,
            chain=chain,
            leader_venue=leader_venue,
            leader=leader,
            limits=limits,
            trades=trades,
        )

        return copy_agent_dry_run_body

