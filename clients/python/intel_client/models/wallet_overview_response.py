from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.portfolio_risk_response import PortfolioRiskResponse
  from ..models.trader_edge_response import TraderEdgeResponse
  from ..models.trader_score_response import TraderScoreResponse
  from ..models.trader_style_response import TraderStyleResponse
  from ..models.wallet_analyze_response import WalletAnalyzeResponse
  from ..models.wallet_health_response import WalletHealthResponse
  from ..models.wallet_overview_response_bundle import WalletOverviewResponseBundle
  from ..models.wallet_overview_response_portfolio_risk_type_1 import WalletOverviewResponsePortfolioRiskType1
  from ..models.wallet_overview_response_trader_edge_type_1 import WalletOverviewResponseTraderEdgeType1
  from ..models.wallet_overview_response_trader_score_type_1 import WalletOverviewResponseTraderScoreType1
  from ..models.wallet_overview_response_trader_style_type_1 import WalletOverviewResponseTraderStyleType1
  from ..models.wallet_overview_response_wallet_analyze_type_1 import WalletOverviewResponseWalletAnalyzeType1
  from ..models.wallet_overview_response_wallet_health_type_1 import WalletOverviewResponseWalletHealthType1
  from ..models.wallet_overview_response_wallet_pnl_quality_type_1 import WalletOverviewResponseWalletPnlQualityType1
  from ..models.wallet_overview_response_wallet_trades_type_1 import WalletOverviewResponseWalletTradesType1
  from ..models.wallet_pnl_quality_response import WalletPnlQualityResponse
  from ..models.wallet_trades_response import WalletTradesResponse





T = TypeVar("T", bound="WalletOverviewResponse")



@_attrs_define
class WalletOverviewResponse:
    """ 
        Attributes:
            wallet (str):
            chain (str):
            bundle (WalletOverviewResponseBundle):
            trader_score (TraderScoreResponse | WalletOverviewResponseTraderScoreType1):
            trader_style (TraderStyleResponse | WalletOverviewResponseTraderStyleType1):
            trader_edge (TraderEdgeResponse | WalletOverviewResponseTraderEdgeType1):
            wallet_health (WalletHealthResponse | WalletOverviewResponseWalletHealthType1):
            wallet_pnl_quality (WalletOverviewResponseWalletPnlQualityType1 | WalletPnlQualityResponse):
            wallet_trades (WalletOverviewResponseWalletTradesType1 | WalletTradesResponse):
            portfolio_risk (PortfolioRiskResponse | WalletOverviewResponsePortfolioRiskType1):
            wallet_analyze (WalletAnalyzeResponse | WalletOverviewResponseWalletAnalyzeType1):
            failed (list[str]):
     """

    wallet: str
    chain: str
    bundle: WalletOverviewResponseBundle
    trader_score: TraderScoreResponse | WalletOverviewResponseTraderScoreType1
    trader_style: TraderStyleResponse | WalletOverviewResponseTraderStyleType1
    trader_edge: TraderEdgeResponse | WalletOverviewResponseTraderEdgeType1
    wallet_health: WalletHealthResponse | WalletOverviewResponseWalletHealthType1
    wallet_pnl_quality: WalletOverviewResponseWalletPnlQualityType1 | WalletPnlQualityResponse
    wallet_trades: WalletOverviewResponseWalletTradesType1 | WalletTradesResponse
    portfolio_risk: PortfolioRiskResponse | WalletOverviewResponsePortfolioRiskType1
    wallet_analyze: WalletAnalyzeResponse | WalletOverviewResponseWalletAnalyzeType1
    failed: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.portfolio_risk_response import PortfolioRiskResponse # noqa: PLC0415
        from ..models.trader_edge_response import TraderEdgeResponse # noqa: PLC0415
        from ..models.trader_score_response import TraderScoreResponse # noqa: PLC0415
        from ..models.trader_style_response import TraderStyleResponse # noqa: PLC0415
        from ..models.wallet_analyze_response import WalletAnalyzeResponse # noqa: PLC0415
        from ..models.wallet_health_response import WalletHealthResponse # noqa: PLC0415
        from ..models.wallet_overview_response_bundle import WalletOverviewResponseBundle # noqa: PLC0415
        from ..models.wallet_overview_response_portfolio_risk_type_1 import WalletOverviewResponsePortfolioRiskType1 # noqa: PLC0415
        from ..models.wallet_overview_response_trader_edge_type_1 import WalletOverviewResponseTraderEdgeType1 # noqa: PLC0415
        from ..models.wallet_overview_response_trader_score_type_1 import WalletOverviewResponseTraderScoreType1 # noqa: PLC0415
        from ..models.wallet_overview_response_trader_style_type_1 import WalletOverviewResponseTraderStyleType1 # noqa: PLC0415
        from ..models.wallet_overview_response_wallet_analyze_type_1 import WalletOverviewResponseWalletAnalyzeType1 # noqa: PLC0415
        from ..models.wallet_overview_response_wallet_health_type_1 import WalletOverviewResponseWalletHealthType1 # noqa: PLC0415
        from ..models.wallet_overview_response_wallet_pnl_quality_type_1 import WalletOverviewResponseWalletPnlQualityType1 # noqa: PLC0415
        from ..models.wallet_overview_response_wallet_trades_type_1 import WalletOverviewResponseWalletTradesType1 # noqa: PLC0415
        from ..models.wallet_pnl_quality_response import WalletPnlQualityResponse # noqa: PLC0415
        from ..models.wallet_trades_response import WalletTradesResponse # noqa: PLC0415
        wallet = self.wallet

        chain = self.chain

        bundle = self.bundle.to_dict()

        trader_score: dict[str, Any]
        if isinstance(self.trader_score, TraderScoreResponse):
            trader_score = self.trader_score.to_dict()
        else:
            trader_score = self.trader_score.to_dict()


        trader_style: dict[str, Any]
        if isinstance(self.trader_style, TraderStyleResponse):
            trader_style = self.trader_style.to_dict()
        else:
            trader_style = self.trader_style.to_dict()


        trader_edge: dict[str, Any]
        if isinstance(self.trader_edge, TraderEdgeResponse):
            trader_edge = self.trader_edge.to_dict()
        else:
            trader_edge = self.trader_edge.to_dict()


        wallet_health: dict[str, Any]
        if isinstance(self.wallet_health, WalletHealthResponse):
            wallet_health = self.wallet_health.to_dict()
        else:
            wallet_health = self.wallet_health.to_dict()


        wallet_pnl_quality: dict[str, Any]
        if isinstance(self.wallet_pnl_quality, WalletPnlQualityResponse):
            wallet_pnl_quality = self.wallet_pnl_quality.to_dict()
        else:
            wallet_pnl_quality = self.wallet_pnl_quality.to_dict()


        wallet_trades: dict[str, Any]
        if isinstance(self.wallet_trades, WalletTradesResponse):
            wallet_trades = self.wallet_trades.to_dict()
        else:
            wallet_trades = self.wallet_trades.to_dict()


        portfolio_risk: dict[str, Any]
        if isinstance(self.portfolio_risk, PortfolioRiskResponse):
            portfolio_risk = self.portfolio_risk.to_dict()
        else:
            portfolio_risk = self.portfolio_risk.to_dict()


        wallet_analyze: dict[str, Any]
        if isinstance(self.wallet_analyze, WalletAnalyzeResponse):
            wallet_analyze = self.wallet_analyze.to_dict()
        else:
            wallet_analyze = self.wallet_analyze.to_dict()


        failed = self.failed




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "wallet": wallet,
            "chain": chain,
            "bundle": bundle,
            "traderScore": trader_score,
            "traderStyle": trader_style,
            "traderEdge": trader_edge,
            "walletHealth": wallet_health,
            "walletPnlQuality": wallet_pnl_quality,
            "walletTrades": wallet_trades,
            "portfolioRisk": portfolio_risk,
            "walletAnalyze": wallet_analyze,
            "failed": failed,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.portfolio_risk_response import PortfolioRiskResponse # noqa: PLC0415
        from ..models.trader_edge_response import TraderEdgeResponse # noqa: PLC0415
        from ..models.trader_score_response import TraderScoreResponse # noqa: PLC0415
        from ..models.trader_style_response import TraderStyleResponse # noqa: PLC0415
        from ..models.wallet_analyze_response import WalletAnalyzeResponse # noqa: PLC0415
        from ..models.wallet_health_response import WalletHealthResponse # noqa: PLC0415
        from ..models.wallet_overview_response_bundle import WalletOverviewResponseBundle # noqa: PLC0415
        from ..models.wallet_overview_response_portfolio_risk_type_1 import WalletOverviewResponsePortfolioRiskType1 # noqa: PLC0415
        from ..models.wallet_overview_response_trader_edge_type_1 import WalletOverviewResponseTraderEdgeType1 # noqa: PLC0415
        from ..models.wallet_overview_response_trader_score_type_1 import WalletOverviewResponseTraderScoreType1 # noqa: PLC0415
        from ..models.wallet_overview_response_trader_style_type_1 import WalletOverviewResponseTraderStyleType1 # noqa: PLC0415
        from ..models.wallet_overview_response_wallet_analyze_type_1 import WalletOverviewResponseWalletAnalyzeType1 # noqa: PLC0415
        from ..models.wallet_overview_response_wallet_health_type_1 import WalletOverviewResponseWalletHealthType1 # noqa: PLC0415
        from ..models.wallet_overview_response_wallet_pnl_quality_type_1 import WalletOverviewResponseWalletPnlQualityType1 # noqa: PLC0415
        from ..models.wallet_overview_response_wallet_trades_type_1 import WalletOverviewResponseWalletTradesType1 # noqa: PLC0415
        from ..models.wallet_pnl_quality_response import WalletPnlQualityResponse # noqa: PLC0415
        from ..models.wallet_trades_response import WalletTradesResponse # noqa: PLC0415
        d = dict(src_dict)
        wallet = d.pop("wallet")

        chain = d.pop("chain")

        bundle = WalletOverviewResponseBundle.from_dict(d.pop("bundle"))




        def _parse_trader_score(data: object) -> TraderScoreResponse | WalletOverviewResponseTraderScoreType1:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                trader_score_type_0 = TraderScoreResponse.from_dict(data)



                return trader_score_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            trader_score_type_1 = WalletOverviewResponseTraderScoreType1.from_dict(data)



            return trader_score_type_1

        trader_score = _parse_trader_score(d.pop("traderScore"))


        def _parse_trader_style(data: object) -> TraderStyleResponse | WalletOverviewResponseTraderStyleType1:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                trader_style_type_0 = TraderStyleResponse.from_dict(data)



                return trader_style_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            trader_style_type_1 = WalletOverviewResponseTraderStyleType1.from_dict(data)



            return trader_style_type_1

        trader_style = _parse_trader_style(d.pop("traderStyle"))


        def _parse_trader_edge(data: object) -> TraderEdgeResponse | WalletOverviewResponseTraderEdgeType1:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                trader_edge_type_0 = TraderEdgeResponse.from_dict(data)



                return trader_edge_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            trader_edge_type_1 = WalletOverviewResponseTraderEdgeType1.from_dict(data)



            return trader_edge_type_1

        trader_edge = _parse_trader_edge(d.pop("traderEdge"))


        def _parse_wallet_health(data: object) -> WalletHealthResponse | WalletOverviewResponseWalletHealthType1:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                wallet_health_type_0 = WalletHealthResponse.from_dict(data)



                return wallet_health_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            wallet_health_type_1 = WalletOverviewResponseWalletHealthType1.from_dict(data)



            return wallet_health_type_1

        wallet_health = _parse_wallet_health(d.pop("walletHealth"))


        def _parse_wallet_pnl_quality(data: object) -> WalletOverviewResponseWalletPnlQualityType1 | WalletPnlQualityResponse:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                wallet_pnl_quality_type_0 = WalletPnlQualityResponse.from_dict(data)



                return wallet_pnl_quality_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            wallet_pnl_quality_type_1 = WalletOverviewResponseWalletPnlQualityType1.from_dict(data)



            return wallet_pnl_quality_type_1

        wallet_pnl_quality = _parse_wallet_pnl_quality(d.pop("walletPnlQuality"))


        def _parse_wallet_trades(data: object) -> WalletOverviewResponseWalletTradesType1 | WalletTradesResponse:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                wallet_trades_type_0 = WalletTradesResponse.from_dict(data)



                return wallet_trades_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            wallet_trades_type_1 = WalletOverviewResponseWalletTradesType1.from_dict(data)



            return wallet_trades_type_1

        wallet_trades = _parse_wallet_trades(d.pop("walletTrades"))


        def _parse_portfolio_risk(data: object) -> PortfolioRiskResponse | WalletOverviewResponsePortfolioRiskType1:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                portfolio_risk_type_0 = PortfolioRiskResponse.from_dict(data)



                return portfolio_risk_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            portfolio_risk_type_1 = WalletOverviewResponsePortfolioRiskType1.from_dict(data)



            return portfolio_risk_type_1

        portfolio_risk = _parse_portfolio_risk(d.pop("portfolioRisk"))


        def _parse_wallet_analyze(data: object) -> WalletAnalyzeResponse | WalletOverviewResponseWalletAnalyzeType1:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                wallet_analyze_type_0 = WalletAnalyzeResponse.from_dict(data)



                return wallet_analyze_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            wallet_analyze_type_1 = WalletOverviewResponseWalletAnalyzeType1.from_dict(data)



            return wallet_analyze_type_1

        wallet_analyze = _parse_wallet_analyze(d.pop("walletAnalyze"))


        failed = cast(list[str], d.pop("failed"))


        wallet_overview_response = cls(
            wallet=wallet,
            chain=chain,
            bundle=bundle,
            trader_score=trader_score,
            trader_style=trader_style,
            trader_edge=trader_edge,
            wallet_health=wallet_health,
            wallet_pnl_quality=wallet_pnl_quality,
            wallet_trades=wallet_trades,
            portfolio_risk=portfolio_risk,
            wallet_analyze=wallet_analyze,
            failed=failed,
        )


        wallet_overview_response.additional_properties = d
        return wallet_overview_response

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
