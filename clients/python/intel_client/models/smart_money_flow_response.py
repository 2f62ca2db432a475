from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.verdict import Verdict
from typing import cast

if TYPE_CHECKING:
  from ..models.smart_money_flow_response_sample import SmartMoneyFlowResponseSample





T = TypeVar("T", bound="SmartMoneyFlowResponse")



@_attrs_define
class SmartMoneyFlowResponse:
    """ 
        Attributes:
            chain (str):
            token (str):
            symbol (None | str):
            as_of (str): ISO time of the last event folded into the snapshot
            age_seconds (float): seconds between asOf and the time the response was served
            smart_money_buying (bool): at least two buyers inside the window are graded mirror-worthy (the smartMoney
                pillar)
            mirror_worthy_buyers (int): distinct buyers inside the window graded mirror-worthy
            window_hours (float):
            buyers_in_window (int):
            verdict (Verdict):
            sample (SmartMoneyFlowResponseSample): grades of the most recent distinct buyers (any time), as many as `sample`
                asked for
     """

    chain: str
    token: str
    symbol: None | str
    as_of: str
    age_seconds: float
    smart_money_buying: bool
    mirror_worthy_buyers: int
    window_hours: float
    buyers_in_window: int
    verdict: Verdict
    sample: SmartMoneyFlowResponseSample
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.smart_money_flow_response_sample import SmartMoneyFlowResponseSample # noqa: PLC0415
        chain = self.chain

        token = self.token

        symbol: None | str
        symbol = self.symbol

        as_of = self.as_of

        age_seconds = self.age_seconds

        smart_money_buying = self.smart_money_buying

        mirror_worthy_buyers = self.mirror_worthy_buyers

        window_hours = self.window_hours

        buyers_in_window = self.buyers_in_window

        verdict = self.verdict.value

        sample = self.sample.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "token": token,
            "symbol": symbol,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "smartMoneyBuying": smart_money_buying,
            "mirrorWorthyBuyers": mirror_worthy_buyers,
            "windowHours": window_hours,
            "buyersInWindow": buyers_in_window,
            "verdict": verdict,
            "sample": sample,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.smart_money_flow_response_sample import SmartMoneyFlowResponseSample # noqa: PLC0415
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

        smart_money_buying = d.pop("smartMoneyBuying")

        mirror_worthy_buyers = d.pop("mirrorWorthyBuyers")

        window_hours = d.pop("windowHours")

        buyers_in_window = d.pop("buyersInWindow")

        verdict = Verdict(d.pop("verdict"))




        sample = SmartMoneyFlowResponseSample.from_dict(d.pop("sample"))




        smart_money_flow_response = cls(
            chain=chain,
            token=token,
            symbol=symbol,
            as_of=as_of,
            age_seconds=age_seconds,
            smart_money_buying=smart_money_buying,
            mirror_worthy_buyers=mirror_worthy_buyers,
            window_hours=window_hours,
            buyers_in_window=buyers_in_window,
            verdict=verdict,
            sample=sample,
        )


        smart_money_flow_response.additional_properties = d
        return smart_money_flow_response

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
