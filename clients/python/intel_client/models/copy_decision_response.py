from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.verdict import Verdict
from typing import cast

if TYPE_CHECKING:
  from ..models.gate import Gate





T = TypeVar("T", bound="CopyDecisionResponse")



@_attrs_define
class CopyDecisionResponse:
    """ 
        Attributes:
            chain (str):
            wallet (str): the wallet address (lowercase)
            as_of (str): ISO time of the last event folded into the snapshot
            age_seconds (float): seconds between asOf and the time the response was served
            verdict (Verdict):
            gates (list[Gate]):
            gates_passed (int):
            gates_total (int):
            rationale (str): model-written
     """

    chain: str
    wallet: str
    as_of: str
    age_seconds: float
    verdict: Verdict
    gates: list[Gate]
    gates_passed: int
    gates_total: int
    rationale: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.gate import Gate # noqa: PLC0415
        chain = self.chain

        wallet = self.wallet

        as_of = self.as_of

        age_seconds = self.age_seconds

        verdict = self.verdict.value

        gates = []
        for gates_item_data in self.gates:
            gates_item = gates_item_data.to_dict()
            gates.append(gates_item)



        gates_passed = self.gates_passed

        gates_total = self.gates_total

        rationale = self.rationale


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "wallet": wallet,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "verdict": verdict,
            "gates": gates,
            "gatesPassed": gates_passed,
            "gatesTotal": gates_total,
            "rationale": rationale,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.gate import Gate # noqa: PLC0415
        d = dict(src_dict)
        chain = d.pop("chain")

        wallet = d.pop("wallet")

        as_of = d.pop("asOf")

        age_seconds = d.pop("ageSeconds")

        verdict = Verdict(d.pop("verdict"))




        gates = []
        _gates = d.pop("gates")
        for gates_item_data in (_gates):
            gates_item = Gate.from_dict(gates_item_data)



            gates.append(gates_item)


        gates_passed = d.pop("gatesPassed")

        gates_total = d.pop("gatesTotal")

        rationale = d.pop("rationale")

        copy_decision_response = cls(
            chain=chain,
            wallet=wallet,
            as_of=as_of,
            age_seconds=age_seconds,
            verdict=verdict,
            gates=gates,
            gates_passed=gates_passed,
            gates_total=gates_total,
            rationale=rationale,
        )


        copy_decision_response.additional_properties = d
        return copy_decision_response

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
