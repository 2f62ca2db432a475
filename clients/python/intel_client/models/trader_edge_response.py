from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.trader_edge_response_confidence import TraderEdgeResponseConfidence
from ..models.verdict import Verdict
from typing import cast

if TYPE_CHECKING:
  from ..models.trader_edge_response_edge import TraderEdgeResponseEdge





T = TypeVar("T", bound="TraderEdgeResponse")



@_attrs_define
class TraderEdgeResponse:
    """ 
        Attributes:
            chain (str):
            wallet (str): the wallet address (lowercase)
            as_of (str): ISO time of the last event folded into the snapshot
            age_seconds (float): seconds between asOf and the time the response was served
            edge (TraderEdgeResponseEdge):
            confidence (TraderEdgeResponseConfidence): from sample sizes: <10 low, <40 moderate, else high
            verdict (Verdict):
     """

    chain: str
    wallet: str
    as_of: str
    age_seconds: float
    edge: TraderEdgeResponseEdge
    confidence: TraderEdgeResponseConfidence
    verdict: Verdict
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.trader_edge_response_edge import TraderEdgeResponseEdge # noqa: PLC0415
        chain = self.chain

        wallet = self.wallet

        as_of = self.as_of

        age_seconds = self.age_seconds

        edge = self.edge.to_dict()

        confidence = self.confidence.value

        verdict = self.verdict.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "wallet": wallet,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "edge": edge,
            "confidence": confidence,
            "verdict": verdict,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.trader_edge_response_edge import TraderEdgeResponseEdge # noqa: PLC0415
        d = dict(src_dict)
        chain = d.pop("chain")

        wallet = d.pop("wallet")

        as_of = d.pop("asOf")

        age_seconds = d.pop("ageSeconds")

        edge = TraderEdgeResponseEdge.from_dict(d.pop("edge"))




        confidence = TraderEdgeResponseConfidence(d.pop("confidence"))




        verdict = Verdict(d.pop("verdict"))




        trader_edge_response = cls(
            chain=chain,
            wallet=wallet,
            as_of=as_of,
            age_seconds=age_seconds,
            edge=edge,
            confidence=confidence,
            verdict=verdict,
        )


        trader_edge_response.additional_properties = d
        return trader_edge_response

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
