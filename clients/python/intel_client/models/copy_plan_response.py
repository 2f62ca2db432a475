from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.verdict import Verdict
from typing import cast

if TYPE_CHECKING:
  from ..models.copy_limits import CopyLimits
  from ..models.copy_plan_response_plan import CopyPlanResponsePlan





T = TypeVar("T", bound="CopyPlanResponse")



@_attrs_define
class CopyPlanResponse:
    """ 
        Attributes:
            chain (str):
            wallet (str): the wallet address (lowercase)
            as_of (str): ISO time of the last event folded into the snapshot
            age_seconds (float): seconds between asOf and the time the response was served
            verdict (Verdict):
            limits (CopyLimits):
            plan (CopyPlanResponsePlan):
            skip_rules (list[str]):
            warnings (list[str]):
            summary (str): model-written
     """

    chain: str
    wallet: str
    as_of: str
    age_seconds: float
    verdict: Verdict
    limits: CopyLimits
    plan: CopyPlanResponsePlan
    skip_rules: list[str]
    warnings: list[str]
    summary: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.copy_limits import CopyLimits # noqa: PLC0415
        from ..models.copy_plan_response_plan import CopyPlanResponsePlan # noqa: PLC0415
        chain = self.chain

        wallet = self.wallet

        as_of = self.as_of

        age_seconds = self.age_seconds

        verdict = self.verdict.value

        limits = self.limits.to_dict()

        plan = self.plan.to_dict()

        skip_rules = self.skip_rules



        warnings = self.warnings



        summary = self.summary


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "wallet": wallet,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "verdict": verdict,
            "limits": limits,
            "plan": plan,
            "skipRules": skip_rules,
            "warnings": warnings,
            "summary": summary,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.copy_limits import CopyLimits # noqa: PLC0415
        from ..models.copy_plan_response_plan import CopyPlanResponsePlan # noqa: PLC0415
        d = dict(src_dict)
        chain = d.pop("chain")

        wallet = d.pop("wallet")

        as_of = d.pop("asOf")

        age_seconds = d.pop("ageSeconds")

        verdict = Verdict(d.pop("verdict"))




        limits = CopyLimits.from_dict(d.pop("limits"))




        plan = CopyPlanResponsePlan.from_dict(d.pop("plan"))




        skip_rules = cast(list[str], d.pop("skipRules"))


        warnings = cast(list[str], d.pop("warnings"))


        summary = d.pop("summary")

        copy_plan_response = cls(
            chain=chain,
            wallet=wallet,
            as_of=as_of,
            age_seconds=age_seconds,
            verdict=verdict,
            limits=limits,
            plan=plan,
            skip_rules=skip_rules,
            warnings=warnings,
            summary=summary,
        )


        copy_plan_response.additional_properties = d
        return copy_plan_response

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
