from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.depth_band import DepthBand
from typing import cast






T = TypeVar("T", bound="BatchTokenRiskResponseResultsItemType0Signals")



@_attrs_define
class BatchTokenRiskResponseResultsItemType0Signals:
    """ 
        Attributes:
            liquidity (DepthBand):
            liquidity_change_1_h_pct (float | None):
            largest_liquidity_drop_pct (float):
            deployer_liquidity_share_pct (float):
            top_10_share_pct (float):
            largest_share_pct (float):
            sell_tax_pct (float):
            buyers (int):
            non_insider_sellers (int):
            insiders (int):
     """

    liquidity: DepthBand
    liquidity_change_1_h_pct: float | None
    largest_liquidity_drop_pct: float
    deployer_liquidity_share_pct: float
    top_10_share_pct: float
    largest_share_pct: float
    sell_tax_pct: float
    buyers: int
    non_insider_sellers: int
    insiders: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        liquidity = self.liquidity.value

        liquidity_change_1_h_pct: float | None
        liquidity_change_1_h_pct = self.liquidity_change_1_h_pct

        largest_liquidity_drop_pct = self.largest_liquidity_drop_pct

        deployer_liquidity_share_pct = self.deployer_liquidity_share_pct

        top_10_share_pct = self.top_10_share_pct

        largest_share_pct = self.largest_share_pct

        sell_tax_pct = self.sell_tax_pct

        buyers = self.buyers

        non_insider_sellers = self.non_insider_sellers

        insiders = self.insiders


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "liquidity": liquidity,
            "liquidityChange1hPct": liquidity_change_1_h_pct,
            "largestLiquidityDropPct": largest_liquidity_drop_pct,
            "deployerLiquiditySharePct": deployer_liquidity_share_pct,
            "top10SharePct": top_10_share_pct,
            "largestSharePct": largest_share_pct,
            "sellTaxPct": sell_tax_pct,
            "buyers": buyers,
            "nonInsiderSellers": non_insider_sellers,
            "insiders": insiders,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        liquidity = DepthBand(d.pop("liquidity"))




        def _parse_liquidity_change_1_h_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        liquidity_change_1_h_pct = _parse_liquidity_change_1_h_pct(d.pop("liquidityChange1hPct"))


        largest_liquidity_drop_pct = d.pop("largestLiquidityDropPct")

        deployer_liquidity_share_pct = d.pop("deployerLiquiditySharePct")

        top_10_share_pct = d.pop("top10SharePct")

        largest_share_pct = d.pop("largestSharePct")

        sell_tax_pct = d.pop("sellTaxPct")

        buyers = d.pop("buyers")

        non_insider_sellers = d.pop("nonInsiderSellers")

        insiders = d.pop("insiders")

        batch_token_risk_response_results_item_type_0_signals = cls(
            liquidity=liquidity,
            liquidity_change_1_h_pct=liquidity_change_1_h_pct,
            largest_liquidity_drop_pct=largest_liquidity_drop_pct,
            deployer_liquidity_share_pct=deployer_liquidity_share_pct,
            top_10_share_pct=top_10_share_pct,
            largest_share_pct=largest_share_pct,
            sell_tax_pct=sell_tax_pct,
            buyers=buyers,
            non_insider_sellers=non_insider_sellers,
            insiders=insiders,
        )


        batch_token_risk_response_results_item_type_0_signals.additional_properties = d
        return batch_token_risk_response_results_item_type_0_signals

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
