from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.edge_band import EdgeBand
from ..models.profit_factor_band import ProfitFactorBand
from ..models.quality_band import QualityBand
from ..models.trader_style import TraderStyle
from ..models.verdict import Verdict
from typing import cast






T = TypeVar("T", bound="WalletAnalyzeResponse")



@_attrs_define
class WalletAnalyzeResponse:
    """ 
        Attributes:
            chain (str):
            wallet (str): the wallet address (lowercase)
            as_of (str): ISO time of the last event folded into the snapshot
            age_seconds (float): seconds between asOf and the time the response was served
            grade (Verdict):
            style (TraderStyle):
            strengths (list[str]):
            weaknesses (list[str]):
            edge (EdgeBand):
            pnl (None | ProfitFactorBand):
            consistency (QualityBand):
            copyability (QualityBand):
            summary (str): model-written
     """

    chain: str
    wallet: str
    as_of: str
    age_seconds: float
    grade: Verdict
    style: TraderStyle
    strengths: list[str]
    weaknesses: list[str]
    edge: EdgeBand
    pnl: None | ProfitFactorBand
    consistency: QualityBand
    copyability: QualityBand
    summary: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        chain = self.chain

        wallet = self.wallet

        as_of = self.as_of

        age_seconds = self.age_seconds

        grade = self.grade.value

        style = self.style.value

        strengths = self.strengths



        weaknesses = self.weaknesses



        edge = self.edge.value

        pnl: None | str
        if isinstance(self.pnl, ProfitFactorBand):
            pnl = self.pnl.value
        else:
            pnl = self.pnl

        consistency = self.consistency.value

        copyability = self.copyability.value

        summary = self.summary


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "wallet": wallet,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "grade": grade,
            "style": style,
            "strengths": strengths,
            "weaknesses": weaknesses,
            "edge": edge,
            "pnl": pnl,
            "consistency": consistency,
            "copyability": copyability,
            "summary": summary,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        chain = d.pop("chain")

        wallet = d.pop("wallet")

        as_of = d.pop("asOf")

        age_seconds = d.pop("ageSeconds")

        grade = Verdict(d.pop("grade"))




        style = TraderStyle(d.pop("style"))




        strengths = cast(list[str], d.pop("strengths"))


        weaknesses = cast(list[str], d.pop("weaknesses"))


        edge = EdgeBand(d.pop("edge"))




        def _parse_pnl(data: object) -> None | ProfitFactorBand:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                pnl_type_0 = ProfitFactorBand(data)



                return pnl_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ProfitFactorBand, data)

        pnl = _parse_pnl(d.pop("pnl"))


        consistency = QualityBand(d.pop("consistency"))




        copyability = QualityBand(d.pop("copyability"))




        summary = d.pop("summary")

        wallet_analyze_response = cls(
            chain=chain,
            wallet=wallet,
            as_of=as_of,
            age_seconds=age_seconds,
            grade=grade,
            style=style,
            strengths=strengths,
            weaknesses=weaknesses,
            edge=edge,
            pnl=pnl,
            consistency=consistency,
            copyability=copyability,
            summary=summary,
        )


        wallet_analyze_response.additional_properties = d
        return wallet_analyze_response

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
