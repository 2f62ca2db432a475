from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.copy_plan_response_plan_copy_ratio import CopyPlanResponsePlanCopyRatio
from ..models.hold_band import HoldBand
from ..models.size_band import SizeBand
from typing import cast






T = TypeVar("T", bound="CopyPlanResponsePlan")



@_attrs_define
class CopyPlanResponsePlan:
    """ 
        Attributes:
            copy_ratio (CopyPlanResponsePlanCopyRatio): fixed: every copied entry uses perTradeUsd; scaled: the leader is
                smaller than perTradeUsd
            per_trade_usd (float):
            capital_at_risk_pct (float): maxOpenPositions x perTradeUsd x stopLossPct / budget
            expected_entries_per_week (float):
            expected_hold (HoldBand | None):
            leader_size (None | SizeBand):
     """

    copy_ratio: CopyPlanResponsePlanCopyRatio
    per_trade_usd: float
    capital_at_risk_pct: float
    expected_entries_per_week: float
    expected_hold: HoldBand | None
    leader_size: None | SizeBand
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        copy_ratio = self.copy_ratio.value

        per_trade_usd = self.per_trade_usd

        capital_at_risk_pct = self.capital_at_risk_pct

        expected_entries_per_week = self.expected_entries_per_week

        expected_hold: None | str
        if isinstance(self.expected_hold, HoldBand):
            expected_hold = self.expected_hold.value
        else:
            expected_hold = self.expected_hold

        leader_size: None | str
        if isinstance(self.leader_size, SizeBand):
            leader_size = self.leader_size.value
        else:
            leader_size = self.leader_size


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "copyRatio": copy_ratio,
            "perTradeUsd": per_trade_usd,
            "capitalAtRiskPct": capital_at_risk_pct,
            "expectedEntriesPerWeek": expected_entries_per_week,
            "expectedHold": expected_hold,
            "leaderSize": leader_size,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        copy_ratio = CopyPlanResponsePlanCopyRatio(d.pop("copyRatio"))




        per_trade_usd = d.pop("perTradeUsd")

        capital_at_risk_pct = d.pop("capitalAtRiskPct")

        expected_entries_per_week = d.pop("expectedEntriesPerWeek")

        def _parse_expected_hold(data: object) -> HoldBand | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expected_hold_type_0 = HoldBand(data)



                return expected_hold_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HoldBand | None, data)

        expected_hold = _parse_expected_hold(d.pop("expectedHold"))


        def _parse_leader_size(data: object) -> None | SizeBand:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                leader_size_type_0 = SizeBand(data)



                return leader_size_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SizeBand, data)

        leader_size = _parse_leader_size(d.pop("leaderSize"))


        copy_plan_response_plan = cls(
            copy_ratio=copy_ratio,
            per_trade_usd=per_trade_usd,
            capital_at_risk_pct=capital_at_risk_pct,
            expected_entries_per_week=expected_entries_per_week,
            expected_hold=expected_hold,
            leader_size=leader_size,
        )


        copy_plan_response_plan.additional_properties = d
        return copy_plan_response_plan

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
