""" Contains all the data models used in inputs/outputs """

from .activity_window import ActivityWindow
from .agent_limits import AgentLimits
from .agent_session import AgentSession
from .agent_session_setup import AgentSessionSetup
from .agent_state import AgentState
from .base_rate import BaseRate
from .batch_token_intel_body import BatchTokenIntelBody
from .batch_token_intel_body_chain import BatchTokenIntelBodyChain
from .batch_token_intel_response import BatchTokenIntelResponse
from .batch_token_intel_response_results_item_type_0 import BatchTokenIntelResponseResultsItemType0
from .batch_token_intel_response_results_item_type_0_activity import BatchTokenIntelResponseResultsItemType0Activity
from .batch_token_intel_response_results_item_type_0_entry import BatchTokenIntelResponseResultsItemType0Entry
from .batch_token_intel_response_results_item_type_0_momentum import BatchTokenIntelResponseResultsItemType0Momentum
from .batch_token_intel_response_results_item_type_0_risk import BatchTokenIntelResponseResultsItemType0Risk
from .batch_token_intel_response_results_item_type_1 import BatchTokenIntelResponseResultsItemType1
from .batch_token_intel_response_results_item_type_1_error import BatchTokenIntelResponseResultsItemType1Error
from .batch_token_risk_body import BatchTokenRiskBody
from .batch_token_risk_body_chain import BatchTokenRiskBodyChain
from .batch_token_risk_response import BatchTokenRiskResponse
from .batch_token_risk_response_results_item_type_0 import BatchTokenRiskResponseResultsItemType0
from .batch_token_risk_response_results_item_type_0_signals import BatchTokenRiskResponseResultsItemType0Signals
from .batch_token_risk_response_results_item_type_1 import BatchTokenRiskResponseResultsItemType1
from .batch_token_risk_response_results_item_type_1_error import BatchTokenRiskResponseResultsItemType1Error
from .batch_token_signal_body import BatchTokenSignalBody
from .batch_token_signal_body_chain import BatchTokenSignalBodyChain
from .batch_token_signal_response import BatchTokenSignalResponse
from .batch_token_signal_response_results_item_type_0 import BatchTokenSignalResponseResultsItemType0
from .batch_token_signal_response_results_item_type_1 import BatchTokenSignalResponseResultsItemType1
from .batch_token_signal_response_results_item_type_1_error import BatchTokenSignalResponseResultsItemType1Error
from .board_item import BoardItem
from .catalog import Catalog
from .catalog_chains_item import CatalogChainsItem
from .catalog_endpoints_item import CatalogEndpointsItem
from .catalog_endpoints_item_input import CatalogEndpointsItemInput
from .catalog_endpoints_item_method import CatalogEndpointsItemMethod
from .chain_slug import ChainSlug
from .conviction_board_chain import ConvictionBoardChain
from .conviction_board_refresh import ConvictionBoardRefresh
from .conviction_board_response import ConvictionBoardResponse
from .copy_agent_create_body import CopyAgentCreateBody
from .copy_agent_create_body_chain import CopyAgentCreateBodyChain
from .copy_agent_create_body_leader_venue import CopyAgentCreateBodyLeaderVenue
from .copy_agent_create_body_limits import CopyAgentCreateBodyLimits
from .copy_agent_create_body_limits_min_leader_grade import CopyAgentCreateBodyLimitsMinLeaderGrade
from .copy_agent_create_body_mode import CopyAgentCreateBodyMode
from .copy_agent_create_body_stable_caps_item import CopyAgentCreateBodyStableCapsItem
from .copy_agent_create_body_venue import CopyAgentCreateBodyVenue
from .copy_agent_create_response import CopyAgentCreateResponse
from .copy_agent_create_response_agent import CopyAgentCreateResponseAgent
from .copy_agent_create_response_agent_chain_type_1 import CopyAgentCreateResponseAgentChainType1
from .copy_agent_create_response_agent_mode import CopyAgentCreateResponseAgentMode
from .copy_agent_dry_run_body import CopyAgentDryRunBody
from .copy_agent_dry_run_body_chain import CopyAgentDryRunBodyChain
from .copy_agent_dry_run_body_leader_venue import CopyAgentDryRunBodyLeaderVenue
from .copy_agent_dry_run_body_limits import CopyAgentDryRunBodyLimits
from .copy_agent_dry_run_body_limits_min_leader_grade import CopyAgentDryRunBodyLimitsMinLeaderGrade
from .copy_agent_dry_run_body_venue import CopyAgentDryRunBodyVenue
from .copy_agent_dry_run_response import CopyAgentDryRunResponse
from .copy_agent_dry_run_response_by_reason import CopyAgentDryRunResponseByReason
from .copy_agent_dry_run_response_items_item import CopyAgentDryRunResponseItemsItem
from .copy_agent_dry_run_response_items_item_action import CopyAgentDryRunResponseItemsItemAction
from .copy_agent_dry_run_response_items_item_decision import CopyAgentDryRunResponseItemsItemDecision
from .copy_agent_dry_run_response_items_item_side import CopyAgentDryRunResponseItemsItemSide
from .copy_agent_executions_body import CopyAgentExecutionsBody
from .copy_agent_executions_body_status import CopyAgentExecutionsBodyStatus
from .copy_agent_executions_response import CopyAgentExecutionsResponse
from .copy_agent_get_body import CopyAgentGetBody
from .copy_agent_grant_body import CopyAgentGrantBody
from .copy_agent_grant_body_chain import CopyAgentGrantBodyChain
from .copy_agent_grant_body_leader_venue import CopyAgentGrantBodyLeaderVenue
from .copy_agent_grant_body_limits import CopyAgentGrantBodyLimits
from .copy_agent_grant_body_limits_min_leader_grade import CopyAgentGrantBodyLimitsMinLeaderGrade
from .copy_agent_grant_body_mode import CopyAgentGrantBodyMode
from .copy_agent_grant_body_stable_caps_item import CopyAgentGrantBodyStableCapsItem
from .copy_agent_grant_body_venue import CopyAgentGrantBodyVenue
from .copy_agent_grant_response import CopyAgentGrantResponse
from .copy_agent_grant_response_typed_data import CopyAgentGrantResponseTypedData
from .copy_agent_grant_response_typed_data_domain import CopyAgentGrantResponseTypedDataDomain
from .copy_agent_grant_response_typed_data_message import CopyAgentGrantResponseTypedDataMessage
from .copy_agent_grant_response_typed_data_primary_type import CopyAgentGrantResponseTypedDataPrimaryType
from .copy_agent_grant_response_typed_data_types import CopyAgentGrantResponseTypedDataTypes
from .copy_agent_grant_response_typed_data_types_additional_property_item import CopyAgentGrantResponseTypedDataTypesAdditionalPropertyItem
from .copy_agent_list_body import CopyAgentListBody
from .copy_agent_list_body_state import CopyAgentListBodyState
from .copy_agent_list_response import CopyAgentListResponse
from .copy_agent_list_response_agents_item import CopyAgentListResponseAgentsItem
from .copy_agent_list_response_agents_item_chain_type_1 import CopyAgentListResponseAgentsItemChainType1
from .copy_agent_list_response_agents_item_mode import CopyAgentListResponseAgentsItemMode
from .copy_agent_pause_body import CopyAgentPauseBody
from .copy_agent_resume_body import CopyAgentResumeBody
from .copy_agent_revoke_body import CopyAgentRevokeBody
from .copy_decision_body import CopyDecisionBody
from .copy_decision_body_chain import CopyDecisionBodyChain
from .copy_decision_response import CopyDecisionResponse
from .copy_limits import CopyLimits
from .copy_overlap_body import CopyOverlapBody
from .copy_overlap_body_chain import CopyOverlapBodyChain
from .copy_overlap_response import CopyOverlapResponse
from .copy_overlap_response_leaders_item import CopyOverlapResponseLeadersItem
from .copy_overlap_response_overlap import CopyOverlapResponseOverlap
from .copy_overlap_response_pairs_item import CopyOverlapResponsePairsItem
from .copy_overlap_response_shared_item import CopyOverlapResponseSharedItem
from .copy_perp_leaders_venue import CopyPerpLeadersVenue
from .copy_plan_body import CopyPlanBody
from .copy_plan_body_chain import CopyPlanBodyChain
from .copy_plan_body_skip_risk_at_or_above import CopyPlanBodySkipRiskAtOrAbove
from .copy_plan_response import CopyPlanResponse
from .copy_plan_response_plan import CopyPlanResponsePlan
from .copy_plan_response_plan_copy_ratio import CopyPlanResponsePlanCopyRatio
from .copy_prediction_leaders_venue import CopyPredictionLeadersVenue
from .copy_simulate_body import CopySimulateBody
from .copy_simulate_body_chain import CopySimulateBodyChain
from .copy_simulate_body_skip_risk_at_or_above import CopySimulateBodySkipRiskAtOrAbove
from .copy_simulate_response import CopySimulateResponse
from .copy_simulate_response_outcome import CopySimulateResponseOutcome
from .copy_simulate_response_skips import CopySimulateResponseSkips
from .copy_simulate_response_window import CopySimulateResponseWindow
from .copy_spot_leaders_chain import CopySpotLeadersChain
from .copy_strategies_chain import CopyStrategiesChain
from .copy_strategies_response import CopyStrategiesResponse
from .copy_top_traders_chain import CopyTopTradersChain
from .delivery_result import DeliveryResult
from .depth_band import DepthBand
from .edge_band import EdgeBand
from .error import Error
from .error_error import ErrorError
from .execution import Execution
from .execution_action import ExecutionAction
from .execution_chain_type_1 import ExecutionChainType1
from .execution_direction_type_1 import ExecutionDirectionType1
from .execution_direction_type_2_type_1 import ExecutionDirectionType2Type1
from .execution_direction_type_3_type_1 import ExecutionDirectionType3Type1
from .execution_fill import ExecutionFill
from .execution_side import ExecutionSide
from .execution_status import ExecutionStatus
from .execution_venue import ExecutionVenue
from .exit_risk_body import ExitRiskBody
from .exit_risk_body_chain import ExitRiskBodyChain
from .exit_risk_response import ExitRiskResponse
from .exit_risk_response_direction import ExitRiskResponseDirection
from .exit_risk_response_signals import ExitRiskResponseSignals
from .flow_direction import FlowDirection
from .gate import Gate
from .grade_outcome import GradeOutcome
from .hold_band import HoldBand
from .horizon import Horizon
from .horizon_stats import HorizonStats
from .inflection_state import InflectionState
from .launch_buyers import LaunchBuyers
from .launch_buyers_bundles import LaunchBuyersBundles
from .launch_buyers_snipers import LaunchBuyersSnipers
from .leaderboard_item import LeaderboardItem
from .level_band import LevelBand
from .market_movers_chain import MarketMoversChain
from .market_movers_response import MarketMoversResponse
from .market_regime import MarketRegime
from .market_regime_chain import MarketRegimeChain
from .market_regime_response import MarketRegimeResponse
from .market_regime_response_signals import MarketRegimeResponseSignals
from .momentum_band import MomentumBand
from .mover_item import MoverItem
from .mover_item_momentum import MoverItemMomentum
from .mover_item_signals import MoverItemSignals
from .perp_track_record_venue import PerpTrackRecordVenue
from .perp_wallet_body import PerpWalletBody
from .perp_wallet_body_venue import PerpWalletBodyVenue
from .pillars import Pillars
from .portfolio_position import PortfolioPosition
from .portfolio_risk_body import PortfolioRiskBody
from .portfolio_risk_body_chain import PortfolioRiskBodyChain
from .portfolio_risk_response import PortfolioRiskResponse
from .portfolio_risk_response_concentration import PortfolioRiskResponseConcentration
from .portfolio_risk_response_concentration_band import PortfolioRiskResponseConcentrationBand
from .prediction_track_record_venue import PredictionTrackRecordVenue
from .prediction_wallet_body import PredictionWalletBody
from .prediction_wallet_body_venue import PredictionWalletBodyVenue
from .profit_factor_band import ProfitFactorBand
from .quality_band import QualityBand
from .radar_item import RadarItem
from .resolution import Resolution
from .return_band import ReturnBand
from .risk_band import RiskBand
from .risk_flag import RiskFlag
from .risk_flag_severity import RiskFlagSeverity
from .risk_flag_source import RiskFlagSource
from .risk_flags import RiskFlags
from .sample import Sample
from .severity import Severity
from .signals_track_record_chain import SignalsTrackRecordChain
from .signals_track_record_response import SignalsTrackRecordResponse
from .signals_track_record_response_overall import SignalsTrackRecordResponseOverall
from .simulated_trade import SimulatedTrade
from .simulated_trade_action import SimulatedTradeAction
from .simulated_trade_status import SimulatedTradeStatus
from .size_band import SizeBand
from .size_band_usd import SizeBandUsd
from .smart_money_flow_body import SmartMoneyFlowBody
from .smart_money_flow_body_chain import SmartMoneyFlowBodyChain
from .smart_money_flow_response import SmartMoneyFlowResponse
from .smart_money_flow_response_sample import SmartMoneyFlowResponseSample
from .smart_money_radar_chain import SmartMoneyRadarChain
from .smart_money_radar_refresh import SmartMoneyRadarRefresh
from .smart_money_radar_response import SmartMoneyRadarResponse
from .spot_leader_item import SpotLeaderItem
from .spot_leaders_response import SpotLeadersResponse
from .spot_leaders_response_venue import SpotLeadersResponseVenue
from .strategy_item import StrategyItem
from .strategy_item_suggested_limits import StrategyItemSuggestedLimits
from .strategy_item_top_leaders_item import StrategyItemTopLeadersItem
from .token_change import TokenChange
from .token_changes_body import TokenChangesBody
from .token_changes_body_chain import TokenChangesBodyChain
from .token_changes_response import TokenChangesResponse
from .token_changes_response_current import TokenChangesResponseCurrent
from .token_compare_body import TokenCompareBody
from .token_compare_body_chain import TokenCompareBodyChain
from .token_compare_response import TokenCompareResponse
from .token_compare_response_ranked_item import TokenCompareResponseRankedItem
from .token_holders_insight_body import TokenHoldersInsightBody
from .token_holders_insight_body_chain import TokenHoldersInsightBodyChain
from .token_holders_insight_response import TokenHoldersInsightResponse
from .token_holders_insight_response_organic import TokenHoldersInsightResponseOrganic
from .token_holders_insight_response_trend import TokenHoldersInsightResponseTrend
from .token_holders_insight_response_whale_shape import TokenHoldersInsightResponseWhaleShape
from .token_inflection_body import TokenInflectionBody
from .token_inflection_body_chain import TokenInflectionBodyChain
from .token_inflection_response import TokenInflectionResponse
from .token_inflection_response_signals import TokenInflectionResponseSignals
from .token_intel_body import TokenIntelBody
from .token_intel_body_chain import TokenIntelBodyChain
from .token_intel_response import TokenIntelResponse
from .token_intel_response_activity import TokenIntelResponseActivity
from .token_intel_response_entry import TokenIntelResponseEntry
from .token_intel_response_momentum import TokenIntelResponseMomentum
from .token_intel_response_risk import TokenIntelResponseRisk
from .token_narrative_body import TokenNarrativeBody
from .token_narrative_body_chain import TokenNarrativeBodyChain
from .token_narrative_response import TokenNarrativeResponse
from .token_overview_body import TokenOverviewBody
from .token_overview_body_chain import TokenOverviewBodyChain
from .token_overview_response import TokenOverviewResponse
from .token_overview_response_bundle import TokenOverviewResponseBundle
from .token_overview_response_exit_risk_type_1 import TokenOverviewResponseExitRiskType1
from .token_overview_response_smart_money_flow_type_1 import TokenOverviewResponseSmartMoneyFlowType1
from .token_overview_response_token_changes_type_1 import TokenOverviewResponseTokenChangesType1
from .token_overview_response_token_holders_insight_type_1 import TokenOverviewResponseTokenHoldersInsightType1
from .token_overview_response_token_inflection_type_1 import TokenOverviewResponseTokenInflectionType1
from .token_overview_response_token_intel_type_1 import TokenOverviewResponseTokenIntelType1
from .token_overview_response_token_narrative_type_1 import TokenOverviewResponseTokenNarrativeType1
from .token_overview_response_token_price_action_type_1 import TokenOverviewResponseTokenPriceActionType1
from .token_overview_response_token_signal_type_1 import TokenOverviewResponseTokenSignalType1
from .token_overview_response_token_valuation_type_1 import TokenOverviewResponseTokenValuationType1
from .token_price_action_body import TokenPriceActionBody
from .token_price_action_body_chain import TokenPriceActionBodyChain
from .token_price_action_body_resolution import TokenPriceActionBodyResolution
from .token_price_action_response import TokenPriceActionResponse
from .token_price_action_response_breakout import TokenPriceActionResponseBreakout
from .token_price_action_response_structure import TokenPriceActionResponseStructure
from .token_price_action_response_trend import TokenPriceActionResponseTrend
from .token_risk_body import TokenRiskBody
from .token_risk_body_chain import TokenRiskBodyChain
from .token_risk_response import TokenRiskResponse
from .token_risk_response_signals import TokenRiskResponseSignals
from .token_signal_body import TokenSignalBody
from .token_signal_body_chain import TokenSignalBodyChain
from .token_signal_response import TokenSignalResponse
from .token_signal_value import TokenSignalValue
from .token_spark_body import TokenSparkBody
from .token_spark_body_chain import TokenSparkBodyChain
from .token_spark_response import TokenSparkResponse
from .token_valuation_body import TokenValuationBody
from .token_valuation_body_chain import TokenValuationBodyChain
from .token_valuation_response import TokenValuationResponse
from .token_valuation_response_signals import TokenValuationResponseSignals
from .top_traders_response import TopTradersResponse
from .track_record_example import TrackRecordExample
from .track_record_example_horizon import TrackRecordExampleHorizon
from .track_record_example_outcome import TrackRecordExampleOutcome
from .track_record_group import TrackRecordGroup
from .track_record_group_base_rates import TrackRecordGroupBaseRates
from .track_record_group_horizons import TrackRecordGroupHorizons
from .track_record_row import TrackRecordRow
from .trade_summary import TradeSummary
from .trade_summary_status import TradeSummaryStatus
from .trader_board_chain import TraderBoardChain
from .trader_board_response import TraderBoardResponse
from .trader_board_response_grades import TraderBoardResponseGrades
from .trader_board_response_holding_item import TraderBoardResponseHoldingItem
from .trader_board_response_styles import TraderBoardResponseStyles
from .trader_edge_body import TraderEdgeBody
from .trader_edge_body_chain import TraderEdgeBodyChain
from .trader_edge_response import TraderEdgeResponse
from .trader_edge_response_confidence import TraderEdgeResponseConfidence
from .trader_edge_response_edge import TraderEdgeResponseEdge
from .trader_leaderboard_chain import TraderLeaderboardChain
from .trader_leaderboard_response import TraderLeaderboardResponse
from .trader_leaderboard_style import TraderLeaderboardStyle
from .trader_score_body import TraderScoreBody
from .trader_score_body_chain import TraderScoreBodyChain
from .trader_score_response import TraderScoreResponse
from .trader_score_response_components import TraderScoreResponseComponents
from .trader_style import TraderStyle
from .trader_style_body import TraderStyleBody
from .trader_style_body_chain import TraderStyleBodyChain
from .trader_style_response import TraderStyleResponse
from .trader_style_response_launch_timing import TraderStyleResponseLaunchTiming
from .trader_style_response_signals import TraderStyleResponseSignals
from .trader_style_response_tempo import TraderStyleResponseTempo
from .traders_track_record_chain import TradersTrackRecordChain
from .trend import Trend
from .usage_response import UsageResponse
from .usage_response_budget import UsageResponseBudget
from .usage_response_by_operation import UsageResponseByOperation
from .usage_response_limits import UsageResponseLimits
from .usage_response_limits_budget import UsageResponseLimitsBudget
from .usage_response_limits_key import UsageResponseLimitsKey
from .usage_response_limits_org import UsageResponseLimitsOrg
from .usage_response_limits_sandbox import UsageResponseLimitsSandbox
from .usage_response_rate import UsageResponseRate
from .valuation_stance import ValuationStance
from .venue_hold_band import VenueHoldBand
from .venue_leader import VenueLeader
from .venue_leaders_response import VenueLeadersResponse
from .venue_leaders_response_graded import VenueLeadersResponseGraded
from .venue_profit_factor_band import VenueProfitFactorBand
from .venue_return_band import VenueReturnBand
from .venue_size_band import VenueSizeBand
from .venue_style import VenueStyle
from .venue_track_record_response import VenueTrackRecordResponse
from .venue_track_record_response_separation_item import VenueTrackRecordResponseSeparationItem
from .venue_wallet_response import VenueWalletResponse
from .venue_wallet_response_behaviour import VenueWalletResponseBehaviour
from .venue_wallet_response_behaviour_entry_price_band_type_1 import VenueWalletResponseBehaviourEntryPriceBandType1
from .venue_wallet_response_behaviour_entry_price_band_type_2_type_1 import VenueWalletResponseBehaviourEntryPriceBandType2Type1
from .venue_wallet_response_behaviour_entry_price_band_type_3_type_1 import VenueWalletResponseBehaviourEntryPriceBandType3Type1
from .venue_wallet_response_performance import VenueWalletResponsePerformance
from .venue_wallet_response_sample import VenueWalletResponseSample
from .verdict import Verdict
from .volume_band import VolumeBand
from .wallet_analyze_body import WalletAnalyzeBody
from .wallet_analyze_body_chain import WalletAnalyzeBodyChain
from .wallet_analyze_response import WalletAnalyzeResponse
from .wallet_health_body import WalletHealthBody
from .wallet_health_body_chain import WalletHealthBodyChain
from .wallet_health_response import WalletHealthResponse
from .wallet_health_response_activity import WalletHealthResponseActivity
from .wallet_health_response_flags_item import WalletHealthResponseFlagsItem
from .wallet_health_response_flags_item_severity import WalletHealthResponseFlagsItemSeverity
from .wallet_health_response_health import WalletHealthResponseHealth
from .wallet_overview_body import WalletOverviewBody
from .wallet_overview_body_chain import WalletOverviewBodyChain
from .wallet_overview_response import WalletOverviewResponse
from .wallet_overview_response_bundle import WalletOverviewResponseBundle
from .wallet_overview_response_portfolio_risk_type_1 import WalletOverviewResponsePortfolioRiskType1
from .wallet_overview_response_trader_edge_type_1 import WalletOverviewResponseTraderEdgeType1
from .wallet_overview_response_trader_score_type_1 import WalletOverviewResponseTraderScoreType1
from .wallet_overview_response_trader_style_type_1 import WalletOverviewResponseTraderStyleType1
from .wallet_overview_response_wallet_analyze_type_1 import WalletOverviewResponseWalletAnalyzeType1
from .wallet_overview_response_wallet_health_type_1 import WalletOverviewResponseWalletHealthType1
from .wallet_overview_response_wallet_pnl_quality_type_1 import WalletOverviewResponseWalletPnlQualityType1
from .wallet_overview_response_wallet_trades_type_1 import WalletOverviewResponseWalletTradesType1
from .wallet_pnl_quality_body import WalletPnlQualityBody
from .wallet_pnl_quality_body_chain import WalletPnlQualityBodyChain
from .wallet_pnl_quality_response import WalletPnlQualityResponse
from .wallet_pnl_quality_response_consistency import WalletPnlQualityResponseConsistency
from .wallet_pnl_quality_response_quality import WalletPnlQualityResponseQuality
from .wallet_trades_body import WalletTradesBody
from .wallet_trades_body_chain import WalletTradesBodyChain
from .wallet_trades_body_status import WalletTradesBodyStatus
from .wallet_trades_response import WalletTradesResponse
from .wallet_trades_response_totals import WalletTradesResponseTotals
from .webhook_create_body import WebhookCreateBody
from .webhook_create_body_events_item import WebhookCreateBodyEventsItem
from .webhook_delete_body import WebhookDeleteBody
from .webhook_delete_response import WebhookDeleteResponse
from .webhook_deliveries_body import WebhookDeliveriesBody
from .webhook_deliveries_response import WebhookDeliveriesResponse
from .webhook_delivery import WebhookDelivery
from .webhook_endpoint import WebhookEndpoint
from .webhook_endpoint_created import WebhookEndpointCreated
from .webhook_event_type import WebhookEventType
from .webhook_list_response import WebhookListResponse
from .webhook_test_body import WebhookTestBody
from .webhook_test_response import WebhookTestResponse
from .webhook_test_response_type import WebhookTestResponseType
from .whale_shape import WhaleShape

__all__ = (
    "ActivityWindow",
    "AgentLimits",
    "AgentSession",
    "AgentSessionSetup",
    "AgentState",
    "BaseRate",
    "BatchTokenIntelBody",
    "BatchTokenIntelBodyChain",
    "BatchTokenIntelResponse",
    "BatchTokenIntelResponseResultsItemType0",
    "BatchTokenIntelResponseResultsItemType0Activity",
    "BatchTokenIntelResponseResultsItemType0Entry",
    "BatchTokenIntelResponseResultsItemType0Momentum",
    "BatchTokenIntelResponseResultsItemType0Risk",
    "BatchTokenIntelResponseResultsItemType1",
    "BatchTokenIntelResponseResultsItemType1Error",
    "BatchTokenRiskBody",
    "BatchTokenRiskBodyChain",
    "BatchTokenRiskResponse",
    "BatchTokenRiskResponseResultsItemType0",
    "BatchTokenRiskResponseResultsItemType0Signals",
    "BatchTokenRiskResponseResultsItemType1",
    "BatchTokenRiskResponseResultsItemType1Error",
    "BatchTokenSignalBody",
    "BatchTokenSignalBodyChain",
    "BatchTokenSignalResponse",
    "BatchTokenSignalResponseResultsItemType0",
    "BatchTokenSignalResponseResultsItemType1",
    "BatchTokenSignalResponseResultsItemType1Error",
    "BoardItem",
    "Catalog",
    "CatalogChainsItem",
    "CatalogEndpointsItem",
    "CatalogEndpointsItemInput",
    "CatalogEndpointsItemMethod",
    "ChainSlug",
    "ConvictionBoardChain",
    "ConvictionBoardRefresh",
    "ConvictionBoardResponse",
    "CopyAgentCreateBody",
    "CopyAgentCreateBodyChain",
    "CopyAgentCreateBodyLeaderVenue",
    "CopyAgentCreateBodyLimits",
    "CopyAgentCreateBodyLimitsMinLeaderGrade",
    "CopyAgentCreateBodyMode",
    "CopyAgentCreateBodyStableCapsItem",
    "CopyAgentCreateBodyVenue",
    "CopyAgentCreateResponse",
    "CopyAgentCreateResponseAgent",
    "CopyAgentCreateResponseAgentChainType1",
    "CopyAgentCreateResponseAgentMode",
    "CopyAgentDryRunBody",
    "CopyAgentDryRunBodyChain",
    "CopyAgentDryRunBodyLeaderVenue",
    "CopyAgentDryRunBodyLimits",
    "CopyAgentDryRunBodyLimitsMinLeaderGrade",
    "CopyAgentDryRunBodyVenue",
    "CopyAgentDryRunResponse",
    "CopyAgentDryRunResponseByReason",
    "CopyAgentDryRunResponseItemsItem",
    "CopyAgentDryRunResponseItemsItemAction",
    "CopyAgentDryRunResponseItemsItemDecision",
    "CopyAgentDryRunResponseItemsItemSide",
    "CopyAgentExecutionsBody",
    "CopyAgentExecutionsBodyStatus",
    "CopyAgentExecutionsResponse",
    "CopyAgentGetBody",
    "CopyAgentGrantBody",
    "CopyAgentGrantBodyChain",
    "CopyAgentGrantBodyLeaderVenue",
    "CopyAgentGrantBodyLimits",
    "CopyAgentGrantBodyLimitsMinLeaderGrade",
    "CopyAgentGrantBodyMode",
    "CopyAgentGrantBodyStableCapsItem",
    "CopyAgentGrantBodyVenue",
    "CopyAgentGrantResponse",
    "CopyAgentGrantResponseTypedData",
    "CopyAgentGrantResponseTypedDataDomain",
    "CopyAgentGrantResponseTypedDataMessage",
    "CopyAgentGrantResponseTypedDataPrimaryType",
    "CopyAgentGrantResponseTypedDataTypes",
    "CopyAgentGrantResponseTypedDataTypesAdditionalPropertyItem",
    "CopyAgentListBody",
    "CopyAgentListBodyState",
    "CopyAgentListResponse",
    "CopyAgentListResponseAgentsItem",
    "CopyAgentListResponseAgentsItemChainType1",
    "CopyAgentListResponseAgentsItemMode",
    "CopyAgentPauseBody",
    "CopyAgentResumeBody",
    "CopyAgentRevokeBody",
    "CopyDecisionBody",
    "CopyDecisionBodyChain",
    "CopyDecisionResponse",
    "CopyLimits",
    "CopyOverlapBody",
    "CopyOverlapBodyChain",
    "CopyOverlapResponse",
    "CopyOverlapResponseLeadersItem",
    "CopyOverlapResponseOverlap",
    "CopyOverlapResponsePairsItem",
    "CopyOverlapResponseSharedItem",
    "CopyPerpLeadersVenue",
    "CopyPlanBody",
    "CopyPlanBodyChain",
    "CopyPlanBodySkipRiskAtOrAbove",
    "CopyPlanResponse",
    "CopyPlanResponsePlan",
    "CopyPlanResponsePlanCopyRatio",
    "CopyPredictionLeadersVenue",
    "CopySimulateBody",
    "CopySimulateBodyChain",
    "CopySimulateBodySkipRiskAtOrAbove",
    "CopySimulateResponse",
    "CopySimulateResponseOutcome",
    "CopySimulateResponseSkips",
    "CopySimulateResponseWindow",
    "CopySpotLeadersChain",
    "CopyStrategiesChain",
    "CopyStrategiesResponse",
    "CopyTopTradersChain",
    "DeliveryResult",
    "DepthBand",
    "EdgeBand",
    "Error",
    "ErrorError",
    "Execution",
    "ExecutionAction",
    "ExecutionChainType1",
    "ExecutionDirectionType1",
    "ExecutionDirectionType2Type1",
    "ExecutionDirectionType3Type1",
    "ExecutionFill",
    "ExecutionSide",
    "ExecutionStatus",
    "ExecutionVenue",
    "ExitRiskBody",
    "ExitRiskBodyChain",
    "ExitRiskResponse",
    "ExitRiskResponseDirection",
    "ExitRiskResponseSignals",
    "FlowDirection",
    "Gate",
    "GradeOutcome",
    "HoldBand",
    "Horizon",
    "HorizonStats",
    "InflectionState",
    "LaunchBuyers",
    "LaunchBuyersBundles",
    "LaunchBuyersSnipers",
    "LeaderboardItem",
    "LevelBand",
    "MarketMoversChain",
    "MarketMoversResponse",
    "MarketRegime",
    "MarketRegimeChain",
    "MarketRegimeResponse",
    "MarketRegimeResponseSignals",
    "MomentumBand",
    "MoverItem",
    "MoverItemMomentum",
    "MoverItemSignals",
    "PerpTrackRecordVenue",
    "PerpWalletBody",
    "PerpWalletBodyVenue",
    "Pillars",
    "PortfolioPosition",
    "PortfolioRiskBody",
    "PortfolioRiskBodyChain",
    "PortfolioRiskResponse",
    "PortfolioRiskResponseConcentration",
    "PortfolioRiskResponseConcentrationBand",
    "PredictionTrackRecordVenue",
    "PredictionWalletBody",
    "PredictionWalletBodyVenue",
    "ProfitFactorBand",
    "QualityBand",
    "RadarItem",
    "Resolution",
    "ReturnBand",
    "RiskBand",
    "RiskFlag",
    "RiskFlags",
    "RiskFlagSeverity",
    "RiskFlagSource",
    "Sample",
    "Severity",
    "SignalsTrackRecordChain",
    "SignalsTrackRecordResponse",
    "SignalsTrackRecordResponseOverall",
    "SimulatedTrade",
    "SimulatedTradeAction",
    "SimulatedTradeStatus",
    "SizeBand",
    "SizeBandUsd",
    "SmartMoneyFlowBody",
    "SmartMoneyFlowBodyChain",
    "SmartMoneyFlowResponse",
    "SmartMoneyFlowResponseSample",
    "SmartMoneyRadarChain",
    "SmartMoneyRadarRefresh",
    "SmartMoneyRadarResponse",
    "SpotLeaderItem",
    "SpotLeadersResponse",
    "SpotLeadersResponseVenue",
    "StrategyItem",
    "StrategyItemSuggestedLimits",
    "StrategyItemTopLeadersItem",
    "TokenChange",
    "TokenChangesBody",
    "TokenChangesBodyChain",
    "TokenChangesResponse",
    "TokenChangesResponseCurrent",
    "TokenCompareBody",
    "TokenCompareBodyChain",
    "TokenCompareResponse",
    "TokenCompareResponseRankedItem",
    "TokenHoldersInsightBody",
    "TokenHoldersInsightBodyChain",
    "TokenHoldersInsightResponse",
    "TokenHoldersInsightResponseOrganic",
    "TokenHoldersInsightResponseTrend",
    "TokenHoldersInsightResponseWhaleShape",
    "TokenInflectionBody",
    "TokenInflectionBodyChain",
    "TokenInflectionResponse",
    "TokenInflectionResponseSignals",
    "TokenIntelBody",
    "TokenIntelBodyChain",
    "TokenIntelResponse",
    "TokenIntelResponseActivity",
    "TokenIntelResponseEntry",
    "TokenIntelResponseMomentum",
    "TokenIntelResponseRisk",
    "TokenNarrativeBody",
    "TokenNarrativeBodyChain",
    "TokenNarrativeResponse",
    "TokenOverviewBody",
    "TokenOverviewBodyChain",
    "TokenOverviewResponse",
    "TokenOverviewResponseBundle",
    "TokenOverviewResponseExitRiskType1",
    "TokenOverviewResponseSmartMoneyFlowType1",
    "TokenOverviewResponseTokenChangesType1",
    "TokenOverviewResponseTokenHoldersInsightType1",
    "TokenOverviewResponseTokenInflectionType1",
    "TokenOverviewResponseTokenIntelType1",
    "TokenOverviewResponseTokenNarrativeType1",
    "TokenOverviewResponseTokenPriceActionType1",
    "TokenOverviewResponseTokenSignalType1",
    "TokenOverviewResponseTokenValuationType1",
    "TokenPriceActionBody",
    "TokenPriceActionBodyChain",
    "TokenPriceActionBodyResolution",
    "TokenPriceActionResponse",
    "TokenPriceActionResponseBreakout",
    "TokenPriceActionResponseStructure",
    "TokenPriceActionResponseTrend",
    "TokenRiskBody",
    "TokenRiskBodyChain",
    "TokenRiskResponse",
    "TokenRiskResponseSignals",
    "TokenSignalBody",
    "TokenSignalBodyChain",
    "TokenSignalResponse",
    "TokenSignalValue",
    "TokenSparkBody",
    "TokenSparkBodyChain",
    "TokenSparkResponse",
    "TokenValuationBody",
    "TokenValuationBodyChain",
    "TokenValuationResponse",
    "TokenValuationResponseSignals",
    "TopTradersResponse",
    "TrackRecordExample",
    "TrackRecordExampleHorizon",
    "TrackRecordExampleOutcome",
    "TrackRecordGroup",
    "TrackRecordGroupBaseRates",
    "TrackRecordGroupHorizons",
    "TrackRecordRow",
    "TraderBoardChain",
    "TraderBoardResponse",
    "TraderBoardResponseGrades",
    "TraderBoardResponseHoldingItem",
    "TraderBoardResponseStyles",
    "TraderEdgeBody",
    "TraderEdgeBodyChain",
    "TraderEdgeResponse",
    "TraderEdgeResponseConfidence",
    "TraderEdgeResponseEdge",
    "TraderLeaderboardChain",
    "TraderLeaderboardResponse",
    "TraderLeaderboardStyle",
    "TraderScoreBody",
    "TraderScoreBodyChain",
    "TraderScoreResponse",
    "TraderScoreResponseComponents",
    "TradersTrackRecordChain",
    "TraderStyle",
    "TraderStyleBody",
    "TraderStyleBodyChain",
    "TraderStyleResponse",
    "TraderStyleResponseLaunchTiming",
    "TraderStyleResponseSignals",
    "TraderStyleResponseTempo",
    "TradeSummary",
    "TradeSummaryStatus",
    "Trend",
    "UsageResponse",
    "UsageResponseBudget",
    "UsageResponseByOperation",
    "UsageResponseLimits",
    "UsageResponseLimitsBudget",
    "UsageResponseLimitsKey",
    "UsageResponseLimitsOrg",
    "UsageResponseLimitsSandbox",
    "UsageResponseRate",
    "ValuationStance",
    "VenueHoldBand",
    "VenueLeader",
    "VenueLeadersResponse",
    "VenueLeadersResponseGraded",
    "VenueProfitFactorBand",
    "VenueReturnBand",
    "VenueSizeBand",
    "VenueStyle",
    "VenueTrackRecordResponse",
    "VenueTrackRecordResponseSeparationItem",
    "VenueWalletResponse",
    "VenueWalletResponseBehaviour",
    "VenueWalletResponseBehaviourEntryPriceBandType1",
    "VenueWalletResponseBehaviourEntryPriceBandType2Type1",
    "VenueWalletResponseBehaviourEntryPriceBandType3Type1",
    "VenueWalletResponsePerformance",
    "VenueWalletResponseSample",
    "Verdict",
    "VolumeBand",
    "WalletAnalyzeBody",
    "WalletAnalyzeBodyChain",
    "WalletAnalyzeResponse",
    "WalletHealthBody",
    "WalletHealthBodyChain",
    "WalletHealthResponse",
    "WalletHealthResponseActivity",
    "WalletHealthResponseFlagsItem",
    "WalletHealthResponseFlagsItemSeverity",
    "WalletHealthResponseHealth",
    "WalletOverviewBody",
    "WalletOverviewBodyChain",
    "WalletOverviewResponse",
    "WalletOverviewResponseBundle",
    "WalletOverviewResponsePortfolioRiskType1",
    "WalletOverviewResponseTraderEdgeType1",
    "WalletOverviewResponseTraderScoreType1",
    "WalletOverviewResponseTraderStyleType1",
    "WalletOverviewResponseWalletAnalyzeType1",
    "WalletOverviewResponseWalletHealthType1",
    "WalletOverviewResponseWalletPnlQualityType1",
    "WalletOverviewResponseWalletTradesType1",
    "WalletPnlQualityBody",
    "WalletPnlQualityBodyChain",
    "WalletPnlQualityResponse",
    "WalletPnlQualityResponseConsistency",
    "WalletPnlQualityResponseQuality",
    "WalletTradesBody",
    "WalletTradesBodyChain",
    "WalletTradesBodyStatus",
    "WalletTradesResponse",
    "WalletTradesResponseTotals",
    "WebhookCreateBody",
    "WebhookCreateBodyEventsItem",
    "WebhookDeleteBody",
    "WebhookDeleteResponse",
    "WebhookDeliveriesBody",
    "WebhookDeliveriesResponse",
    "WebhookDelivery",
    "WebhookEndpoint",
    "WebhookEndpointCreated",
    "WebhookEventType",
    "WebhookListResponse",
    "WebhookTestBody",
    "WebhookTestResponse",
    "WebhookTestResponseType",
    "WhaleShape",
)
