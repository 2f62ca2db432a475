from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.risk_band import RiskBand
from typing import cast

if TYPE_CHECKING:
  from ..models.portfolio_position import PortfolioPosition
  from ..models.portfolio_risk_response_concentration import PortfolioRiskResponseConcentration





T = TypeVar("T", bound="PortfolioRiskResponse")



@_attrs_define
class PortfolioRiskResponse:
    """ 
        Attributes:
            chain (str):
            wallet (str): the wallet address (lowercase)
            as_of (str): ISO time of the last event folded into the snapshot
            age_seconds (float): seconds between asOf and the time the response was served
            risk (RiskBand):
            score (int):
            open_positions (int):
            concentration (PortfolioRiskResponseConcentration):
            flagged_exposure_pct (float): share of open cost in tokens with a rug or honeypot flag, or extreme risk
            positions (list[PortfolioPosition]):
            summary (str): model-written
     """

    chain: str
    wallet: str
    as_of: str
    age_seconds: float
    risk: RiskBand
    score: int
    open_positions: int
    concentration: PortfolioRiskResponseConcentration
    flagged_exposure_pct: float
    positions: list[PortfolioPosition]
    summary: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.portfolio_position import PortfolioPosition # noqa: PLC0415
        from ..models.portfolio_risk_response_concentration import PortfolioRiskResponseConcentration # noqa: PLC0415
        chain = self.chain

        wallet = self.wallet

        as_of = self.as_of

        age_seconds = self.age_seconds

        risk = self.risk.value

        score = self.score

        open_positions = self.open_positions

        concentration = self.concentration.to_dict()

        flagged_exposure_pct = self.flagged_exposure_pct

        positions = []
        for positions_item_data in self.positions:
            positions_item = positions_item_data.to_dict()
            positions.append(positions_item)



        summary = self.summary


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "wallet": wallet,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "risk": risk,
            "score": score,
            "openPositions": open_positions,
            "concentration": concentration,
            "flaggedExposurePct": flagged_exposure_pct,
            "positions": positions,
            "summary": summary,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.portfolio_position import PortfolioPosition # noqa: PLC0415
        from ..models.portfolio_risk_response_concentration import PortfolioRiskResponseConcentration # noqa: PLC0415
        d = dict(src_dict)
        chain = d.pop("chain")

        wallet = d.pop("wallet")

        as_of = d.pop("asOf")

        age_seconds = d.pop("ageSeconds")

        risk = RiskBand(d.pop("risk"))




        score = d.pop("score")

        open_positions = d.pop("openPositions")

        concentration = PortfolioRiskResponseConcentration.from_dict(d.pop("concentration"))




        flagged_exposure_pct = d.pop("flaggedExposurePct")

        positions = []
        _positions = d.pop("positions")
        for positions_item_data in (_positions):
            positions_item = PortfolioPosition.from_dict(positions_item_data)



            positions.append(positions_item)


        summary = d.pop("summary")

        portfolio_risk_response = cls(
            chain=chain,
            wallet=wallet,
            as_of=as_of,
            age_seconds=age_seconds,
            risk=risk,
            score=score,
            open_positions=open_positions,
            concentration=concentration,
            flagged_exposure_pct=flagged_exposure_pct,
            positions=positions,
            summary=summary,
        )


        portfolio_risk_response.additional_properties = d
        return portfolio_risk_response

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
