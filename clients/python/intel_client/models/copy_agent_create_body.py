from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.copy_agent_create_body_chain import CopyAgentCreateBodyChain
from ..models.copy_agent_create_body_leader_venue import CopyAgentCreateBodyLeaderVenue
from ..models.copy_agent_create_body_mode import CopyAgentCreateBodyMode
from ..models.copy_agent_create_body_venue import CopyAgentCreateBodyVenue
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.copy_agent_create_body_limits import CopyAgentCreateBodyLimits
  from ..models.copy_agent_create_body_stable_caps_item import CopyAgentCreateBodyStableCapsItem





T = TypeVar("T", bound="CopyAgentCreateBody")



@_attrs_define
class CopyAgentCreateBody:
    """ 
        Attributes:
            venue (CopyAgentCreateBodyVenue): Execution venue; `evm-spot`: swaps from the user's ERC-7579 smart account
                through a session key the contracts limit; `hyperliquid`: perpetuals orders signed by an agent key the user
                approves on the venue (revocable, with an expiry); `polymarket` (in validation): paper only, its live trading is
                off (its orders would come from an address whose key this service holds)
            leader (str): the wallet (evm-spot) or venue account (hyperliquid, polymarket) whose trades the agent copies
                Example: 0xabababababababababababababababababababab.
            limits (CopyAgentCreateBodyLimits):
            chain (CopyAgentCreateBodyChain | Unset): evm-spot: the chain (default the configured default chain)
            leader_venue (CopyAgentCreateBodyLeaderVenue | Unset): hyperliquid and polymarket agents: the venue whose fills
                the leader is followed on (the agent's venue, or sim: the venue simulator, paper only); default the venue when
                its feed is ingested, else sim
            mode (CopyAgentCreateBodyMode | Unset): paper: recorded, never submitted. Default: live for a live key (403
                venue_not_entitled when its organisation is not entitled to the venue), except on polymarket, whose live trading
                is off (its orders would come from an address whose key this service holds): live there answers 403
                venue_not_entitled with that reason, the default is paper; a sandbox key trades on paper only
            account (str | Unset): the user's account on the venue (evm-spot: the ERC-7579 smart account; it must be the
                signing wallet); default the signing wallet Example: 0xabababababababababababababababababababab.
            spend_cap_native (str | Unset): evm-spot live agents: the session's total spend cap in the chain's native asset,
                enforced by the session contract
            stable_caps (list[CopyAgentCreateBodyStableCapsItem] | Unset): evm-spot live agents: stablecoins the session may
                also spend, each with its total cap in the token's base units (e.g. USDC's 6 decimals), enforced by the session
                contract; a stablecoin not named here cannot be spent by the session. Signed in the grant's caps
     """

    venue: CopyAgentCreateBodyVenue
    leader: str
    limits: CopyAgentCreateBodyLimits
    chain: CopyAgentCreateBodyChain | Unset = UNSET
    leader_venue: CopyAgentCreateBodyLeaderVenue | Unset = UNSET
    mode: CopyAgentCreateBodyMode | Unset = UNSET
    account: str | Unset = UNSET
    spend_cap_native: str | Unset = UNSET
    stable_caps: list[CopyAgentCreateBodyStableCapsItem] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.copy_agent_create_body_limits import CopyAgentCreateBodyLimits # noqa: PLC0415
        from ..models.copy_agent_create_body_stable_caps_item import CopyAgentCreateBodyStableCapsItem # noqa: PLC0415
        venue = self.venue.value

        leader = self.leader

        limits = self.limits.to_dict()

        chain: str | Unset = UNSET
        if not isinstance(self.chain, Unset):
            chain = self.chain.value


        leader_venue: str | Unset = UNSET
        if not isinstance(self.leader_venue, Unset):
            leader_venue = self.leader_venue.value


        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode.value


        account = self.account

        spend_cap_native = self.spend_cap_native

        stable_caps: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.stable_caps, Unset):
            stable_caps = []
            for stable_caps_item_data in self.stable_caps:
                stable_caps_item = stable_caps_item_data.to_dict()
                stable_caps.append(stable_caps_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "venue": venue,
            "leader": leader,
            "limits": limits,
        })
        if chain is not UNSET:
            field_dict["chain"] = chain
        if leader_venue is not UNSET:
            field_dict["leaderVenue"] = leader_venue
        if mode is not UNSET:
            field_dict["mode"] = mode
        if account is not UNSET:
            field_dict["account"] = account
        if spend_cap_native is not UNSET:
            field_dict["spendCapNative"] = spend_cap_native
        if stable_caps is not UNSET:
            field_dict["stableCaps"] = stable_caps

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.copy_agent_create_body_limits import CopyAgentCreateBodyLimits # noqa: PLC0415
        from ..models.copy_agent_create_body_stable_caps_item import CopyAgentCreateBodyStableCapsItem # noqa: PLC0415
        d = dict(src_dict)
        venue = CopyAgentCreateBodyVenue(d.pop("venue"))




        leader = d.pop("leader")

        limits = CopyAgentCreateBodyLimits.from_dict(d.pop("limits"))




        _chain = d.pop("chain", UNSET)
        chain: CopyAgentCreateBodyChain | Unset
        if isinstance(_chain,  Unset):
            chain = UNSET
        else:
            chain = CopyAgentCreateBodyChain(_chain)




        _leader_venue = d.pop("leaderVenue", UNSET)
        leader_venue: CopyAgentCreateBodyLeaderVenue | Unset
        if isinstance(_leader_venue,  Unset):
            leader_venue = UNSET
        else:
            leader_venue = CopyAgentCreateBodyLeaderVenue(_leader_venue)




        _mode = d.pop("mode", UNSET)
        mode: CopyAgentCreateBodyMode | Unset
        if isinstance(_mode,  Unset):
            mode = UNSET
        else:
            mode = CopyAgentCreateBodyMode(_mode)




        account = d.pop("account", UNSET)

        spend_cap_native = d.pop("spendCapNative", UNSET)

        _stable_caps = d.pop("stableCaps", UNSET)
        stable_caps: list[CopyAgentCreateBodyStableCapsItem] | Unset = UNSET
        if _stable_caps is not UNSET:
            stable_caps = []
            for stable_caps_item_data in _stable_caps:
                stable_caps_item = CopyAgentCreateBodyStableCapsItem.from_dict(stable_caps_item_data)



                stable_caps.append(stable_caps_item)


        copy_agent_create_body = cls(
            venue=venue,
            leader=leader,
            limits=limits,
            chain=chain,
            leader_venue=leader_venue,
            mode=mode,
            account=account,
            spend_cap_native=spend_cap_native,
            stable_caps=stable_caps,
        )

        return copy_agent_create_body

