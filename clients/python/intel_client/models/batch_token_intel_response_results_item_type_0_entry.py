from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.depth_band import DepthBand
from ..models.inflection_state import InflectionState
from ..models.risk_band import RiskBand
from ..models.valuation_stance import ValuationStance
from typing import cast






T = TypeVar("T", bound="BatchTokenIntelResponseResultsItemType0Entry")



@_attrs_define
class BatchTokenIntelResponseResultsItemType0Entry:
    """ 
        Attributes:
            size_usd (float):
            exit_risk (RiskBand):
            price_impact_pct (float | None):
            liquidity (DepthBand):
            inflection (InflectionState | None):
            stance (ValuationStance):
     """

    size_usd: float
    exit_risk: RiskBand
    price_impact_pct: float | None
    liquidity: DepthBand
    inflection: InflectionState | None
    stance: ValuationStance
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        size_usd = self.size_usd

        exit_risk = self.exit_risk.value

        price_impact_pct: float | None
        price_impact_pct = self.price_impact_pct

        liquidity = self.liquidity.value

        inflection: None | str
        if isinstance(self.inflection, InflectionState):
            inflection = self.inflection.value
        else:
            inflection = self.inflection

        stance = self.stance.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "sizeUsd": size_usd,
            "exitRisk": exit_risk,
            "priceImpactPct": price_impact_pct,
            "liquidity": liquidity,
            "inflection": inflection,
            "stance": stance,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        size_usd = d.pop("sizeUsd")

        exit_risk = RiskBand(d.pop("exitRisk"))




        def _parse_price_impact_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        price_impact_pct = _parse_price_impact_pct(d.pop("priceImpactPct"))


        liquidity = DepthBand(d.pop("liquidity"))




        def _parse_inflection(data: object) -> InflectionState | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                inflection_type_0 = InflectionState(data)



                return inflection_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(InflectionState | None, data)

        inflection = _parse_inflection(d.pop("inflection"))


        stance = ValuationStance(d.pop("stance"))




        batch_token_intel_response_results_item_type_0_entry = cls(
            size_usd=size_usd,
            exit_risk=exit_risk,
            price_impact_pct=price_impact_pct,
            liquidity=liquidity,
            inflection=inflection,
            stance=stance,
        )


        batch_token_intel_response_results_item_type_0_entry.additional_properties = d
        return batch_token_intel_response_results_item_type_0_entry

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
