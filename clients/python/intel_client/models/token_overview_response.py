from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.exit_risk_response import ExitRiskResponse
  from ..models.smart_money_flow_response import SmartMoneyFlowResponse
  from ..models.token_changes_response import TokenChangesResponse
  from ..models.token_holders_insight_response import TokenHoldersInsightResponse
  from ..models.token_inflection_response import TokenInflectionResponse
  from ..models.token_intel_response import TokenIntelResponse
  from ..models.token_narrative_response import TokenNarrativeResponse
  from ..models.token_overview_response_bundle import TokenOverviewResponseBundle
  from ..models.token_overview_response_exit_risk_type_1 import TokenOverviewResponseExitRiskType1
  from ..models.token_overview_response_smart_money_flow_type_1 import TokenOverviewResponseSmartMoneyFlowType1
  from ..models.token_overview_response_token_changes_type_1 import TokenOverviewResponseTokenChangesType1
  from ..models.token_overview_response_token_holders_insight_type_1 import TokenOverviewResponseTokenHoldersInsightType1
  from ..models.token_overview_response_token_inflection_type_1 import TokenOverviewResponseTokenInflectionType1
  from ..models.token_overview_response_token_intel_type_1 import TokenOverviewResponseTokenIntelType1
  from ..models.token_overview_response_token_narrative_type_1 import TokenOverviewResponseTokenNarrativeType1
  from ..models.token_overview_response_token_price_action_type_1 import TokenOverviewResponseTokenPriceActionType1
  from ..models.token_overview_response_token_signal_type_1 import TokenOverviewResponseTokenSignalType1
  from ..models.token_overview_response_token_valuation_type_1 import TokenOverviewResponseTokenValuationType1
  from ..models.token_price_action_response import TokenPriceActionResponse
  from ..models.token_signal_response import TokenSignalResponse
  from ..models.token_valuation_response import TokenValuationResponse





T = TypeVar("T", bound="TokenOverviewResponse")



@_attrs_define
class TokenOverviewResponse:
    """ 
        Attributes:
            token (str):
            chain (str):
            bundle (TokenOverviewResponseBundle):
            token_intel (TokenIntelResponse | TokenOverviewResponseTokenIntelType1):
            token_signal (TokenOverviewResponseTokenSignalType1 | TokenSignalResponse):
            smart_money_flow (SmartMoneyFlowResponse | TokenOverviewResponseSmartMoneyFlowType1):
            exit_risk (ExitRiskResponse | TokenOverviewResponseExitRiskType1):
            token_inflection (TokenInflectionResponse | TokenOverviewResponseTokenInflectionType1):
            token_holders_insight (TokenHoldersInsightResponse | TokenOverviewResponseTokenHoldersInsightType1):
            token_valuation (TokenOverviewResponseTokenValuationType1 | TokenValuationResponse):
            token_narrative (TokenNarrativeResponse | TokenOverviewResponseTokenNarrativeType1):
            token_changes (TokenChangesResponse | TokenOverviewResponseTokenChangesType1):
            token_price_action (TokenOverviewResponseTokenPriceActionType1 | TokenPriceActionResponse):
            failed (list[str]):
     """

    token: str
    chain: str
    bundle: TokenOverviewResponseBundle
    token_intel: TokenIntelResponse | TokenOverviewResponseTokenIntelType1
    token_signal: TokenOverviewResponseTokenSignalType1 | TokenSignalResponse
    smart_money_flow: SmartMoneyFlowResponse | TokenOverviewResponseSmartMoneyFlowType1
    exit_risk: ExitRiskResponse | TokenOverviewResponseExitRiskType1
    token_inflection: TokenInflectionResponse | TokenOverviewResponseTokenInflectionType1
    token_holders_insight: TokenHoldersInsightResponse | TokenOverviewResponseTokenHoldersInsightType1
    token_valuation: TokenOverviewResponseTokenValuationType1 | TokenValuationResponse
    token_narrative: TokenNarrativeResponse | TokenOverviewResponseTokenNarrativeType1
    token_changes: TokenChangesResponse | TokenOverviewResponseTokenChangesType1
    token_price_action: TokenOverviewResponseTokenPriceActionType1 | TokenPriceActionResponse
    failed: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.exit_risk_response import ExitRiskResponse # noqa: PLC0415
        from ..models.smart_money_flow_response import SmartMoneyFlowResponse # noqa: PLC0415
        from ..models.token_changes_response import TokenChangesResponse # noqa: PLC0415
        from ..models.token_holders_insight_response import TokenHoldersInsightResponse # noqa: PLC0415
        from ..models.token_inflection_response import TokenInflectionResponse # noqa: PLC0415
        from ..models.token_intel_response import TokenIntelResponse # noqa: PLC0415
        from ..models.token_narrative_response import TokenNarrativeResponse # noqa: PLC0415
        from ..models.token_overview_response_bundle import TokenOverviewResponseBundle # noqa: PLC0415
        from ..models.token_overview_response_exit_risk_type_1 import TokenOverviewResponseExitRiskType1 # noqa: PLC0415
        from ..models.token_overview_response_smart_money_flow_type_1 import TokenOverviewResponseSmartMoneyFlowType1 # noqa: PLC0415
        from ..models.token_overview_response_token_changes_type_1 import TokenOverviewResponseTokenChangesType1 # noqa: PLC0415
        from ..models.token_overview_response_token_holders_insight_type_1 import TokenOverviewResponseTokenHoldersInsightType1 # noqa: PLC0415
        from ..models.token_overview_response_token_inflection_type_1 import TokenOverviewResponseTokenInflectionType1 # noqa: PLC0415
        from ..models.token_overview_response_token_intel_type_1 import TokenOverviewResponseTokenIntelType1 # noqa: PLC0415
        from ..models.token_overview_response_token_narrative_type_1 import TokenOverviewResponseTokenNarrativeType1 # noqa: PLC0415
        from ..models.token_overview_response_token_price_action_type_1 import TokenOverviewResponseTokenPriceActionType1 # noqa: PLC0415
        from ..models.token_overview_response_token_signal_type_1 import TokenOverviewResponseTokenSignalType1 # noqa: PLC0415
        from ..models.token_overview_response_token_valuation_type_1 import TokenOverviewResponseTokenValuationType1 # noqa: PLC0415
        from ..models.token_price_action_response import TokenPriceActionResponse # noqa: PLC0415
        from ..models.token_signal_response import TokenSignalResponse # noqa: PLC0415
        from ..models.token_valuation_response import TokenValuationResponse # noqa: PLC0415
        token = self.token

        chain = self.chain

        bundle = self.bundle.to_dict()

        token_intel: dict[str, Any]
        if isinstance(self.token_intel, TokenIntelResponse):
            token_intel = self.token_intel.to_dict()
        else:
            token_intel = self.token_intel.to_dict()


        token_signal: dict[str, Any]
        if isinstance(self.token_signal, TokenSignalResponse):
            token_signal = self.token_signal.to_dict()
        else:
            token_signal = self.token_signal.to_dict()


        smart_money_flow: dict[str, Any]
        if isinstance(self.smart_money_flow, SmartMoneyFlowResponse):
            smart_money_flow = self.smart_money_flow.to_dict()
        else:
            smart_money_flow = self.smart_money_flow.to_dict()


        exit_risk: dict[str, Any]
        if isinstance(self.exit_risk, ExitRiskResponse):
            exit_risk = self.exit_risk.to_dict()
        else:
            exit_risk = self.exit_risk.to_dict()


        token_inflection: dict[str, Any]
        if isinstance(self.token_inflection, TokenInflectionResponse):
            token_inflection = self.token_inflection.to_dict()
        else:
            token_inflection = self.token_inflection.to_dict()


        token_holders_insight: dict[str, Any]
        if isinstance(self.token_holders_insight, TokenHoldersInsightResponse):
            token_holders_insight = self.token_holders_insight.to_dict()
        else:
            token_holders_insight = self.token_holders_insight.to_dict()


        token_valuation: dict[str, Any]
        if isinstance(self.token_valuation, TokenValuationResponse):
            token_valuation = self.token_valuation.to_dict()
        else:
            token_valuation = self.token_valuation.to_dict()


        token_narrative: dict[str, Any]
        if isinstance(self.token_narrative, TokenNarrativeResponse):
            token_narrative = self.token_narrative.to_dict()
        else:
            token_narrative = self.token_narrative.to_dict()


        token_changes: dict[str, Any]
        if isinstance(self.token_changes, TokenChangesResponse):
            token_changes = self.token_changes.to_dict()
        else:
            token_changes = self.token_changes.to_dict()


        token_price_action: dict[str, Any]
        if isinstance(self.token_price_action, TokenPriceActionResponse):
            token_price_action = self.token_price_action.to_dict()
        else:
            token_price_action = self.token_price_action.to_dict()


        failed = self.failed




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "token": token,
            "chain": chain,
            "bundle": bundle,
            "tokenIntel": token_intel,
            "tokenSignal": token_signal,
            "smartMoneyFlow": smart_money_flow,
            "exitRisk": exit_risk,
            "tokenInflection": token_inflection,
            "tokenHoldersInsight": token_holders_insight,
            "tokenValuation": token_valuation,
            "tokenNarrative": token_narrative,
            "tokenChanges": token_changes,
            "tokenPriceAction": token_price_action,
            "failed": failed,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.exit_risk_response import ExitRiskResponse # noqa: PLC0415
        from ..models.smart_money_flow_response import SmartMoneyFlowResponse # noqa: PLC0415
        from ..models.token_changes_response import TokenChangesResponse # noqa: PLC0415
        from ..models.token_holders_insight_response import TokenHoldersInsightResponse # noqa: PLC0415
        from ..models.token_inflection_response import TokenInflectionResponse # noqa: PLC0415
        from ..models.token_intel_response import TokenIntelResponse # noqa: PLC0415
        from ..models.token_narrative_response import TokenNarrativeResponse # noqa: PLC0415
        from ..models.token_overview_response_bundle import TokenOverviewResponseBundle # noqa: PLC0415
        from ..models.token_overview_response_exit_risk_type_1 import TokenOverviewResponseExitRiskType1 # noqa: PLC0415
        from ..models.token_overview_response_smart_money_flow_type_1 import TokenOverviewResponseSmartMoneyFlowType1 # noqa: PLC0415
        from ..models.token_overview_response_token_changes_type_1 import TokenOverviewResponseTokenChangesType1 # noqa: PLC0415
        from ..models.token_overview_response_token_holders_insight_type_1 import TokenOverviewResponseTokenHoldersInsightType1 # noqa: PLC0415
        from ..models.token_overview_response_token_inflection_type_1 import TokenOverviewResponseTokenInflectionType1 # noqa: PLC0415
        from ..models.token_overview_response_token_intel_type_1 import TokenOverviewResponseTokenIntelType1 # noqa: PLC0415
        from ..models.token_overview_response_token_narrative_type_1 import TokenOverviewResponseTokenNarrativeType1 # noqa: PLC0415
        from ..models.token_overview_response_token_price_action_type_1 import TokenOverviewResponseTokenPriceActionType1 # noqa: PLC0415
        from ..models.token_overview_response_token_signal_type_1 import TokenOverviewResponseTokenSignalType1 # noqa: PLC0415
        from ..models.token_overview_response_token_valuation_type_1 import TokenOverviewResponseTokenValuationType1 # noqa: PLC0415
        from ..models.token_price_action_response import TokenPriceActionResponse # noqa: PLC0415
        from ..models.token_signal_response import TokenSignalResponse # noqa: PLC0415
        from ..models.token_valuation_response import TokenValuationResponse # noqa: PLC0415
        d = dict(src_dict)
        token = d.pop("token")

        chain = d.pop("chain")

        bundle = TokenOverviewResponseBundle.from_dict(d.pop("bundle"))




        def _parse_token_intel(data: object) -> TokenIntelResponse | TokenOverviewResponseTokenIntelType1:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                token_intel_type_0 = TokenIntelResponse.from_dict(data)



                return token_intel_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            token_intel_type_1 = TokenOverviewResponseTokenIntelType1.from_dict(data)



            return token_intel_type_1

        token_intel = _parse_token_intel(d.pop("tokenIntel"))


        def _parse_token_signal(data: object) -> TokenOverviewResponseTokenSignalType1 | TokenSignalResponse:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                token_signal_type_0 = TokenSignalResponse.from_dict(data)



                return token_signal_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            token_signal_type_1 = TokenOverviewResponseTokenSignalType1.from_dict(data)



            return token_signal_type_1

        token_signal = _parse_token_signal(d.pop("tokenSignal"))


        def _parse_smart_money_flow(data: object) -> SmartMoneyFlowResponse | TokenOverviewResponseSmartMoneyFlowType1:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                smart_money_flow_type_0 = SmartMoneyFlowResponse.from_dict(data)



                return smart_money_flow_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            smart_money_flow_type_1 = TokenOverviewResponseSmartMoneyFlowType1.from_dict(data)



            return smart_money_flow_type_1

        smart_money_flow = _parse_smart_money_flow(d.pop("smartMoneyFlow"))


        def _parse_exit_risk(data: object) -> ExitRiskResponse | TokenOverviewResponseExitRiskType1:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                exit_risk_type_0 = ExitRiskResponse.from_dict(data)



                return exit_risk_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            exit_risk_type_1 = TokenOverviewResponseExitRiskType1.from_dict(data)



            return exit_risk_type_1

        exit_risk = _parse_exit_risk(d.pop("exitRisk"))


        def _parse_token_inflection(data: object) -> TokenInflectionResponse | TokenOverviewResponseTokenInflectionType1:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                token_inflection_type_0 = TokenInflectionResponse.from_dict(data)



                return token_inflection_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            token_inflection_type_1 = TokenOverviewResponseTokenInflectionType1.from_dict(data)



            return token_inflection_type_1

        token_inflection = _parse_token_inflection(d.pop("tokenInflection"))


        def _parse_token_holders_insight(data: object) -> TokenHoldersInsightResponse | TokenOverviewResponseTokenHoldersInsightType1:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                token_holders_insight_type_0 = TokenHoldersInsightResponse.from_dict(data)



                return token_holders_insight_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            token_holders_insight_type_1 = TokenOverviewResponseTokenHoldersInsightType1.from_dict(data)



            return token_holders_insight_type_1

        token_holders_insight = _parse_token_holders_insight(d.pop("tokenHoldersInsight"))


        def _parse_token_valuation(data: object) -> TokenOverviewResponseTokenValuationType1 | TokenValuationResponse:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                token_valuation_type_0 = TokenValuationResponse.from_dict(data)



                return token_valuation_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            token_valuation_type_1 = TokenOverviewResponseTokenValuationType1.from_dict(data)



            return token_valuation_type_1

        token_valuation = _parse_token_valuation(d.pop("tokenValuation"))


        def _parse_token_narrative(data: object) -> TokenNarrativeResponse | TokenOverviewResponseTokenNarrativeType1:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                token_narrative_type_0 = TokenNarrativeResponse.from_dict(data)



                return token_narrative_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            token_narrative_type_1 = TokenOverviewResponseTokenNarrativeType1.from_dict(data)



            return token_narrative_type_1

        token_narrative = _parse_token_narrative(d.pop("tokenNarrative"))


        def _parse_token_changes(data: object) -> TokenChangesResponse | TokenOverviewResponseTokenChangesType1:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                token_changes_type_0 = TokenChangesResponse.from_dict(data)



                return token_changes_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            token_changes_type_1 = TokenOverviewResponseTokenChangesType1.from_dict(data)



            return token_changes_type_1

        token_changes = _parse_token_changes(d.pop("tokenChanges"))


        def _parse_token_price_action(data: object) -> TokenOverviewResponseTokenPriceActionType1 | TokenPriceActionResponse:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                token_price_action_type_0 = TokenPriceActionResponse.from_dict(data)



                return token_price_action_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            token_price_action_type_1 = TokenOverviewResponseTokenPriceActionType1.from_dict(data)



            return token_price_action_type_1

        token_price_action = _parse_token_price_action(d.pop("tokenPriceAction"))


        failed = cast(list[str], d.pop("failed"))


        token_overview_response = cls(
            token=token,
            chain=chain,
            bundle=bundle,
            token_intel=token_intel,
            token_signal=token_signal,
            smart_money_flow=smart_money_flow,
            exit_risk=exit_risk,
            token_inflection=token_inflection,
            token_holders_insight=token_holders_insight,
            token_valuation=token_valuation,
            token_narrative=token_narrative,
            token_changes=token_changes,
            token_price_action=token_price_action,
            failed=failed,
        )


        token_overview_response.additional_properties = d
        return token_overview_response

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
