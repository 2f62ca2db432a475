from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.verdict import Verdict
from typing import cast

if TYPE_CHECKING:
  from ..models.batch_token_intel_response_results_item_type_0_activity import BatchTokenIntelResponseResultsItemType0Activity
  from ..models.batch_token_intel_response_results_item_type_0_entry import BatchTokenIntelResponseResultsItemType0Entry
  from ..models.batch_token_intel_response_results_item_type_0_momentum import BatchTokenIntelResponseResultsItemType0Momentum
  from ..models.batch_token_intel_response_results_item_type_0_risk import BatchTokenIntelResponseResultsItemType0Risk





T = TypeVar("T", bound="BatchTokenIntelResponseResultsItemType0")



@_attrs_define
class BatchTokenIntelResponseResultsItemType0:
    """ 
        Attributes:
            chain (str):
            token (str): token address, lowercase
            symbol (None | str):
            as_of (str): ISO time of the last event folded into the snapshot
            age_seconds (float): seconds between asOf and the time the response was served
            verdict (Verdict):
            risk (BatchTokenIntelResponseResultsItemType0Risk):
            momentum (BatchTokenIntelResponseResultsItemType0Momentum):
            entry (BatchTokenIntelResponseResultsItemType0Entry):
            activity (BatchTokenIntelResponseResultsItemType0Activity):
     """

    chain: str
    token: str
    symbol: None | str
    as_of: str
    age_seconds: float
    verdict: Verdict
    risk: BatchTokenIntelResponseResultsItemType0Risk
    momentum: BatchTokenIntelResponseResultsItemType0Momentum
    entry: BatchTokenIntelResponseResultsItemType0Entry
    activity: BatchTokenIntelResponseResultsItemType0Activity
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.batch_token_intel_response_results_item_type_0_activity import BatchTokenIntelResponseResultsItemType0Activity # noqa: PLC0415
        from ..models.batch_token_intel_response_results_item_type_0_entry import BatchTokenIntelResponseResultsItemType0Entry # noqa: PLC0415
        from ..models.batch_token_intel_response_results_item_type_0_momentum import BatchTokenIntelResponseResultsItemType0Momentum # noqa: PLC0415
        from ..models.batch_token_intel_response_results_item_type_0_risk import BatchTokenIntelResponseResultsItemType0Risk # noqa: PLC0415
        chain = self.chain

        token = self.token

        symbol: None | str
        symbol = self.symbol

        as_of = self.as_of

        age_seconds = self.age_seconds

        verdict = self.verdict.value

        risk = self.risk.to_dict()

        momentum = self.momentum.to_dict()

        entry = self.entry.to_dict()

        activity = self.activity.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "token": token,
            "symbol": symbol,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "verdict": verdict,
            "risk": risk,
            "momentum": momentum,
            "entry": entry,
            "activity": activity,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.batch_token_intel_response_results_item_type_0_activity import BatchTokenIntelResponseResultsItemType0Activity # noqa: PLC0415
        from ..models.batch_token_intel_response_results_item_type_0_entry import BatchTokenIntelResponseResultsItemType0Entry # noqa: PLC0415
        from ..models.batch_token_intel_response_results_item_type_0_momentum import BatchTokenIntelResponseResultsItemType0Momentum # noqa: PLC0415
        from ..models.batch_token_intel_response_results_item_type_0_risk import BatchTokenIntelResponseResultsItemType0Risk # noqa: PLC0415
        d = dict(src_dict)
        chain = d.pop("chain")

        token = d.pop("token")

        def _parse_symbol(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        symbol = _parse_symbol(d.pop("symbol"))


        as_of = d.pop("asOf")

        age_seconds = d.pop("ageSeconds")

        verdict = Verdict(d.pop("verdict"))




        risk = BatchTokenIntelResponseResultsItemType0Risk.from_dict(d.pop("risk"))




        momentum = BatchTokenIntelResponseResultsItemType0Momentum.from_dict(d.pop("momentum"))




        entry = BatchTokenIntelResponseResultsItemType0Entry.from_dict(d.pop("entry"))




        activity = BatchTokenIntelResponseResultsItemType0Activity.from_dict(d.pop("activity"))




        batch_token_intel_response_results_item_type_0 = cls(
            chain=chain,
            token=token,
            symbol=symbol,
            as_of=as_of,
            age_seconds=age_seconds,
            verdict=verdict,
            risk=risk,
            momentum=momentum,
            entry=entry,
            activity=activity,
        )


        batch_token_intel_response_results_item_type_0.additional_properties = d
        return batch_token_intel_response_results_item_type_0

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
