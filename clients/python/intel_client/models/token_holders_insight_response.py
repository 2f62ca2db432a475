from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.verdict import Verdict
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.launch_buyers import LaunchBuyers
  from ..models.token_holders_insight_response_organic import TokenHoldersInsightResponseOrganic
  from ..models.token_holders_insight_response_trend import TokenHoldersInsightResponseTrend
  from ..models.token_holders_insight_response_whale_shape import TokenHoldersInsightResponseWhaleShape





T = TypeVar("T", bound="TokenHoldersInsightResponse")



@_attrs_define
class TokenHoldersInsightResponse:
    """ 
        Attributes:
            chain (str):
            token (str):
            symbol (None | str):
            as_of (str): ISO time of the last event folded into the snapshot
            age_seconds (float): seconds between asOf and the time the response was served
            verdict (Verdict):
            trend (TokenHoldersInsightResponseTrend):
            organic (TokenHoldersInsightResponseOrganic):
            whale_shape (TokenHoldersInsightResponseWhaleShape):
            launch (LaunchBuyers | None | Unset):
     """

    chain: str
    token: str
    symbol: None | str
    as_of: str
    age_seconds: float
    verdict: Verdict
    trend: TokenHoldersInsightResponseTrend
    organic: TokenHoldersInsightResponseOrganic
    whale_shape: TokenHoldersInsightResponseWhaleShape
    launch: LaunchBuyers | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.launch_buyers import LaunchBuyers # noqa: PLC0415
        from ..models.token_holders_insight_response_organic import TokenHoldersInsightResponseOrganic # noqa: PLC0415
        from ..models.token_holders_insight_response_trend import TokenHoldersInsightResponseTrend # noqa: PLC0415
        from ..models.token_holders_insight_response_whale_shape import TokenHoldersInsightResponseWhaleShape # noqa: PLC0415
        chain = self.chain

        token = self.token

        symbol: None | str
        symbol = self.symbol

        as_of = self.as_of

        age_seconds = self.age_seconds

        verdict = self.verdict.value

        trend = self.trend.to_dict()

        organic = self.organic.to_dict()

        whale_shape = self.whale_shape.to_dict()

        launch: dict[str, Any] | None | Unset
        if isinstance(self.launch, Unset):
            launch = UNSET
        elif isinstance(self.launch, LaunchBuyers):
            launch = self.launch.to_dict()
        else:
            launch = self.launch


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "token": token,
            "symbol": symbol,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "verdict": verdict,
            "trend": trend,
            "organic": organic,
            "whaleShape": whale_shape,
        })
        if launch is not UNSET:
            field_dict["launch"] = launch

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.launch_buyers import LaunchBuyers # noqa: PLC0415
        from ..models.token_holders_insight_response_organic import TokenHoldersInsightResponseOrganic # noqa: PLC0415
        from ..models.token_holders_insight_response_trend import TokenHoldersInsightResponseTrend # noqa: PLC0415
        from ..models.token_holders_insight_response_whale_shape import TokenHoldersInsightResponseWhaleShape # noqa: PLC0415
        d = dict(src_dict)
        chain = d.pop("chain")

        token = d.pop("token")

        def _parse_symbol(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        symbol = _parse_symbol(d.pop("symbol"))


        as_of = d.pop("asOf")

        age_seconds = d.pop("ageSeconds")

        verdict = Verdict(d.pop("verdict"))




        trend = TokenHoldersInsightResponseTrend.from_dict(d.pop("trend"))




        organic = TokenHoldersInsightResponseOrganic.from_dict(d.pop("organic"))




        whale_shape = TokenHoldersInsightResponseWhaleShape.from_dict(d.pop("whaleShape"))




        def _parse_launch(data: object) -> LaunchBuyers | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                launch_type_0 = LaunchBuyers.from_dict(data)



                return launch_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LaunchBuyers | None | Unset, data)

        launch = _parse_launch(d.pop("launch", UNSET))


        token_holders_insight_response = cls(
            chain=chain,
            token=token,
            symbol=symbol,
            as_of=as_of,
            age_seconds=age_seconds,
            verdict=verdict,
            trend=trend,
            organic=organic,
            whale_shape=whale_shape,
            launch=launch,
        )


        token_holders_insight_response.additional_properties = d
        return token_holders_insight_response

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
