from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.usage_response_budget import UsageResponseBudget
  from ..models.usage_response_by_operation import UsageResponseByOperation
  from ..models.usage_response_limits import UsageResponseLimits
  from ..models.usage_response_rate import UsageResponseRate





T = TypeVar("T", bound="UsageResponse")



@_attrs_define
class UsageResponse:
    """ 
        Attributes:
            day (str): UTC day, YYYY-MM-DD
            units_today (int):
            requests_today (int):
            by_operation (UsageResponseByOperation):
            rate (UsageResponseRate):
            budget (UsageResponseBudget):
            limits (UsageResponseLimits): every daily limit the key runs under and what is left of it; the first one used up
                refuses calls until the next UTC midnight
     """

    day: str
    units_today: int
    requests_today: int
    by_operation: UsageResponseByOperation
    rate: UsageResponseRate
    budget: UsageResponseBudget
    limits: UsageResponseLimits





    def to_dict(self) -> dict[str, Any]:
        from ..models.usage_response_budget import UsageResponseBudget # noqa: PLC0415
        from ..models.usage_response_by_operation import UsageResponseByOperation # noqa: PLC0415
        from ..models.usage_response_limits import UsageResponseLimits # noqa: PLC0415
        from ..models.usage_response_rate import UsageResponseRate # noqa: PLC0415
        day = self.day

        units_today = self.units_today

        requests_today = self.requests_today

        by_operation = self.by_operation.to_dict()

        rate = self.rate.to_dict()

        budget = self.budget.to_dict()

        limits = self.limits.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "day": day,
            "unitsToday": units_today,
            "requestsToday": requests_today,
            "byOperation": by_operation,
            "rate": rate,
            "budget": budget,
            "limits": limits,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.usage_response_budget import UsageResponseBudget # noqa: PLC0415
        from ..models.usage_response_by_operation import UsageResponseByOperation # noqa: PLC0415
        from ..models.usage_response_limits import UsageResponseLimits # noqa: PLC0415
        from ..models.usage_response_rate import UsageResponseRate # noqa: PLC0415
        d = dict(src_dict)
        day = d.pop("day")

        units_today = d.pop("unitsToday")

        requests_today = d.pop("requestsToday")

        by_operation = UsageResponseByOperation.from_dict(d.pop("byOperation"))




        rate = UsageResponseRate.from_dict(d.pop("rate"))




        budget = UsageResponseBudget.from_dict(d.pop("budget"))




        limits = UsageResponseLimits.from_dict(d.pop("limits"))




        usage_response = cls(
            day=day,
            units_today=units_today,
            requests_today=requests_today,
            by_operation=by_operation,
            rate=rate,
            budget=budget,
            limits=limits,
        )

        return usage_response

