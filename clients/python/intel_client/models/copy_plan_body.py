from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.copy_plan_body_chain import CopyPlanBodyChain
from ..models.copy_plan_body_skip_risk_at_or_above import CopyPlanBodySkipRiskAtOrAbove
from ..types import UNSET, Unset






T = TypeVar("T", bound="CopyPlanBody")



@_attrs_define
class CopyPlanBody:
    """ 
        Attributes:
            wallet (str): 0x-prefixed 20-byte hex address, lowercase; a mixed-case address is accepted too when it passes
                the EIP-55 checksum Example: 0xabababababababababababababababababababab.
            chain (CopyPlanBodyChain | Unset): Chain slug; defaults to the configured default chain.
            budget_usd (float | Unset): copy budget in USD (10..100000000, default 1000) Default: 1000.0.
            max_per_trade_usd (float | Unset): cap per copied entry in USD (default budget / maxOpenPositions)
            max_open_positions (int | Unset): copied positions open at once (1..50, default 5) Default: 5.
            stop_loss_pct (float | Unset): exit a copied position at this loss, percent (1..90, default 25) Default: 25.0.
            skip_risk_at_or_above (CopyPlanBodySkipRiskAtOrAbove | Unset): skip tokens whose risk band is this or worse
                (default high) Default: CopyPlanBodySkipRiskAtOrAbove.HIGH.
     """

    wallet: str
    chain: CopyPlanBodyChain | Unset = UNSET
    budget_usd: float | Unset = 1000.0
    max_per_trade_usd: float | Unset = UNSET
    max_open_positions: int | Unset = 5
    stop_loss_pct: float | Unset = 25.0
    skip_risk_at_or_above: CopyPlanBodySkipRiskAtOrAbove | Unset = CopyPlanBodySkipRiskAtOrAbove.HIGH





    def to_dict(self) -> dict[str, Any]:
        wallet = self.wallet

        chain: str | Unset = UNSET
        if not isinstance(self.chain, Unset):
            chain = self.chain.value


        budget_usd = self.budget_usd

        max_per_trade_usd = self.max_per_trade_usd

        max_open_positions = self.max_open_positions

        stop_loss_pct = self.stop_loss_pct

        skip_risk_at_or_above: str | Unset = UNSET
        if not isinstance(self.skip_risk_at_or_above, Unset):
            skip_risk_at_or_above = self.skip_risk_at_or_above.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
            "wallet": wallet,
        })
        if chain is not UNSET:
            field_dict["chain"] = chain
        if budget_usd is not UNSET:
            field_dict["budgetUsd"] = budget_usd
        if max_per_trade_usd is not UNSET:
            field_dict["maxPerTradeUsd"] = max_per_trade_usd
        if max_open_positions is not UNSET:
            field_dict["maxOpenPositions"] = max_open_positions
        if stop_loss_pct is not UNSET:
            field_dict["stopLossPct"] = stop_loss_pct
        if skip_risk_at_or_above is not UNSET:
            field_dict["skipRiskAtOrAbove"] = skip_risk_at_or_above

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        wallet = d.pop("wallet")

        _chain = d.pop("chain", UNSET)
        chain: CopyPlanBodyChain | Unset
        if isinstance(_chain,  Unset):
            chain = UNSET
        else:
            chain = CopyPlanBodyChain(_chain)




        budget_usd = d.pop("budgetUsd", UNSET)

        max_per_trade_usd = d.pop("maxPerTradeUsd", UNSET)

        max_open_positions = d.pop("maxOpenPositions", UNSET)

        stop_loss_pct = d.pop("stopLossPct", UNSET)

        _skip_risk_at_or_above = d.pop("skipRiskAtOrAbove", UNSET)
        skip_risk_at_or_above: CopyPlanBodySkipRiskAtOrAbove | Unset
        if isinstance(_skip_risk_at_or_above,  Unset):
            skip_risk_at_or_above = UNSET
        else:
            skip_risk_at_or_above = CopyPlanBodySkipRiskAtOrAbove(_skip_risk_at_or_above)




        copy_plan_body = cls(
            wallet=wallet,
            chain=chain,
            budget_usd=budget_usd,
            max_per_trade_usd=max_per_trade_usd,
            max_open_positions=max_open_positions,
            stop_loss_pct=stop_loss_pct,
            skip_risk_at_or_above=skip_risk_at_or_above,
        )

        return copy_plan_body

