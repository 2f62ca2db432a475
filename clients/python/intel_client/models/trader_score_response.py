from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.trader_style import TraderStyle
from ..models.verdict import Verdict
from typing import cast

if TYPE_CHECKING:
  from ..models.sample import Sample
  from ..models.trader_score_response_components import TraderScoreResponseComponents





T = TypeVar("T", bound="TraderScoreResponse")



@_attrs_define
class TraderScoreResponse:
    """ 
        Attributes:
            chain (str):
            wallet (str): the wallet address (lowercase)
            as_of (str): ISO time of the last event folded into the snapshot
            age_seconds (float): seconds between asOf and the time the response was served
            grade (Verdict):
            score (int): composite trader score: 40% edge, 20% consistency, 20% copyability, 20% PnL quality
            components (TraderScoreResponseComponents):
            style (TraderStyle):
            reasons (list[str]):
            sample (Sample):
     """

    chain: str
    wallet: str
    as_of: str
    age_seconds: float
    grade: Verdict
    score: int
    components: TraderScoreResponseComponents
    style: TraderStyle
    reasons: list[str]
    sample: Sample
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.sample import Sample # noqa: PLC0415
        from ..models.trader_score_response_components import TraderScoreResponseComponents # noqa: PLC0415
        chain = self.chain

        wallet = self.wallet

        as_of = self.as_of

        age_seconds = self.age_seconds

        grade = self.grade.value

        score = self.score

        components = self.components.to_dict()

        style = self.style.value

        reasons = self.reasons



        sample = self.sample.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "wallet": wallet,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "grade": grade,
            "score": score,
            "components": components,
            "style": style,
            "reasons": reasons,
            "sample": sample,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sample import Sample # noqa: PLC0415
        from ..models.trader_score_response_components import TraderScoreResponseComponents # noqa: PLC0415
        d = dict(src_dict)
        chain = d.pop("chain")

        wallet = d.pop("wallet")

        as_of = d.pop("asOf")

        age_seconds = d.pop("ageSeconds")

        grade = Verdict(d.pop("grade"))




        score = d.pop("score")

        components = TraderScoreResponseComponents.from_dict(d.pop("components"))




        style = TraderStyle(d.pop("style"))




        reasons = cast(list[str], d.pop("reasons"))


        sample = Sample.from_dict(d.pop("sample"))




        trader_score_response = cls(
            chain=chain,
            wallet=wallet,
            as_of=as_of,
            age_seconds=age_seconds,
            grade=grade,
            score=score,
            components=components,
            style=style,
            reasons=reasons,
            sample=sample,
        )


        trader_score_response.additional_properties = d
        return trader_score_response

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
