from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.venue_style import VenueStyle
from ..models.verdict import Verdict
from typing import cast

if TYPE_CHECKING:
  from ..models.grade_outcome import GradeOutcome
  from ..models.venue_wallet_response_behaviour import VenueWalletResponseBehaviour
  from ..models.venue_wallet_response_performance import VenueWalletResponsePerformance
  from ..models.venue_wallet_response_sample import VenueWalletResponseSample





T = TypeVar("T", bound="VenueWalletResponse")



@_attrs_define
class VenueWalletResponse:
    """ 
        Attributes:
            venue (str):
            wallet (str):
            grade (Verdict):
            reasons (list[str]):
            score (int):
            style (None | VenueStyle):
            sample (VenueWalletResponseSample):
            performance (VenueWalletResponsePerformance):
            behaviour (VenueWalletResponseBehaviour):
            track_record (list[GradeOutcome]):
            summary (str):
            as_of (str):
            age_seconds (float):
     """

    venue: str
    wallet: str
    grade: Verdict
    reasons: list[str]
    score: int
    style: None | VenueStyle
    sample: VenueWalletResponseSample
    performance: VenueWalletResponsePerformance
    behaviour: VenueWalletResponseBehaviour
    track_record: list[GradeOutcome]
    summary: str
    as_of: str
    age_seconds: float





    def to_dict(self) -> dict[str, Any]:
        from ..models.grade_outcome import GradeOutcome # noqa: PLC0415
        from ..models.venue_wallet_response_behaviour import VenueWalletResponseBehaviour # noqa: PLC0415
        from ..models.venue_wallet_response_performance import VenueWalletResponsePerformance # noqa: PLC0415
        from ..models.venue_wallet_response_sample import VenueWalletResponseSample # noqa: PLC0415
        venue = self.venue

        wallet = self.wallet

        grade = self.grade.value

        reasons = self.reasons



        score = self.score

        style: None | str
        if isinstance(self.style, VenueStyle):
            style = self.style.value
        else:
            style = self.style

        sample = self.sample.to_dict()

        performance = self.performance.to_dict()

        behaviour = self.behaviour.to_dict()

        track_record = []
        for track_record_item_data in self.track_record:
            track_record_item = track_record_item_data.to_dict()
            track_record.append(track_record_item)



        summary = self.summary

        as_of = self.as_of

        age_seconds = self.age_seconds


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "venue": venue,
            "wallet": wallet,
            "grade": grade,
            "reasons": reasons,
            "score": score,
            "style": style,
            "sample": sample,
            "performance": performance,
            "behaviour": behaviour,
            "trackRecord": track_record,
            "summary": summary,
            "asOf": as_of,
            "ageSeconds": age_seconds,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.grade_outcome import GradeOutcome # noqa: PLC0415
        from ..models.venue_wallet_response_behaviour import VenueWalletResponseBehaviour # noqa: PLC0415
        from ..models.venue_wallet_response_performance import VenueWalletResponsePerformance # noqa: PLC0415
        from ..models.venue_wallet_response_sample import VenueWalletResponseSample # noqa: PLC0415
        d = dict(src_dict)
        venue = d.pop("venue")

        wallet = d.pop("wallet")

        grade = Verdict(d.pop("grade"))




        reasons = cast(list[str], d.pop("reasons"))


        score = d.pop("score")

        def _parse_style(data: object) -> None | VenueStyle:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                style_type_0 = VenueStyle(data)



                return style_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | VenueStyle, data)

        style = _parse_style(d.pop("style"))


        sample = VenueWalletResponseSample.from_dict(d.pop("sample"))




        performance = VenueWalletResponsePerformance.from_dict(d.pop("performance"))




        behaviour = VenueWalletResponseBehaviour.from_dict(d.pop("behaviour"))




        track_record = []
        _track_record = d.pop("trackRecord")
        for track_record_item_data in (_track_record):
            track_record_item = GradeOutcome.from_dict(track_record_item_data)



            track_record.append(track_record_item)


        summary = d.pop("summary")

        as_of = d.pop("asOf")

        age_seconds = d.pop("ageSeconds")

        venue_wallet_response = cls(
            venue=venue,
            wallet=wallet,
            grade=grade,
            reasons=reasons,
            score=score,
            style=style,
            sample=sample,
            performance=performance,
            behaviour=behaviour,
            track_record=track_record,
            summary=summary,
            as_of=as_of,
            age_seconds=age_seconds,
        )

        return venue_wallet_response

