from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.usage_response_limits_budget import UsageResponseLimitsBudget
  from ..models.usage_response_limits_key import UsageResponseLimitsKey
  from ..models.usage_response_limits_org import UsageResponseLimitsOrg
  from ..models.usage_response_limits_sandbox import UsageResponseLimitsSandbox





T = TypeVar("T", bound="UsageResponseLimits")



@_attrs_define
class UsageResponseLimits:
    """ every daily limit the key runs under and what is left of it; the first one used up refuses calls until the next UTC
    midnight

        Attributes:
            key (UsageResponseLimitsKey): this key's daily quota
            org (UsageResponseLimitsOrg): the organisation's daily quota: all its keys together
            budget (UsageResponseLimitsBudget): the service's daily data budget
            sandbox (UsageResponseLimitsSandbox | Unset): sandbox keys only: what all sandbox keys together may still use
                today
     """

    key: UsageResponseLimitsKey
    org: UsageResponseLimitsOrg
    budget: UsageResponseLimitsBudget
    sandbox: UsageResponseLimitsSandbox | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.usage_response_limits_budget import UsageResponseLimitsBudget # noqa: PLC0415
        from ..models.usage_response_limits_key import UsageResponseLimitsKey # noqa: PLC0415
        from ..models.usage_response_limits_org import UsageResponseLimitsOrg # noqa: PLC0415
        from ..models.usage_response_limits_sandbox import UsageResponseLimitsSandbox # noqa: PLC0415
        key = self.key.to_dict()

        org = self.org.to_dict()

        budget = self.budget.to_dict()

        sandbox: dict[str, Any] | Unset = UNSET
        if not isinstance(self.sandbox, Unset):
            sandbox = self.sandbox.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "key": key,
            "org": org,
            "budget": budget,
        })
        if sandbox is not UNSET:
            field_dict["sandbox"] = sandbox

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.usage_response_limits_budget import UsageResponseLimitsBudget # noqa: PLC0415
        from ..models.usage_response_limits_key import UsageResponseLimitsKey # noqa: PLC0415
        from ..models.usage_response_limits_org import UsageResponseLimitsOrg # noqa: PLC0415
        from ..models.usage_response_limits_sandbox import UsageResponseLimitsSandbox # noqa: PLC0415
        d = dict(src_dict)
        key = UsageResponseLimitsKey.from_dict(d.pop("key"))




        org = UsageResponseLimitsOrg.from_dict(d.pop("org"))




        budget = UsageResponseLimitsBudget.from_dict(d.pop("budget"))




        _sandbox = d.pop("sandbox", UNSET)
        sandbox: UsageResponseLimitsSandbox | Unset
        if isinstance(_sandbox,  Unset):
            sandbox = UNSET
        else:
            sandbox = UsageResponseLimitsSandbox.from_dict(_sandbox)




        usage_response_limits = cls(
            key=key,
            org=org,
            budget=budget,
            sandbox=sandbox,
        )

        return usage_response_limits

