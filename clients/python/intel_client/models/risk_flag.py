from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.risk_flag_severity import RiskFlagSeverity
from ..models.risk_flag_source import RiskFlagSource
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="RiskFlag")



@_attrs_define
class RiskFlag:
    """ 
        Attributes:
            flagged (bool): the flag is raised (severity red)
            severity (RiskFlagSeverity):
            reason (str):
            measured_at (None | str | Unset):
            block (int | None | Unset):
            happened_at (str | Unset):
            source (RiskFlagSource | Unset):
     """

    flagged: bool
    severity: RiskFlagSeverity
    reason: str
    measured_at: None | str | Unset = UNSET
    block: int | None | Unset = UNSET
    happened_at: str | Unset = UNSET
    source: RiskFlagSource | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        flagged = self.flagged

        severity = self.severity.value

        reason = self.reason

        measured_at: None | str | Unset
        if isinstance(self.measured_at, Unset):
            measured_at = UNSET
        else:
            measured_at = self.measured_at

        block: int | None | Unset
        if isinstance(self.block, Unset):
            block = UNSET
        else:
            block = self.block

        happened_at = self.happened_at

        source: str | Unset = UNSET
        if not isinstance(self.source, Unset):
            source = self.source.value



        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "flagged": flagged,
            "severity": severity,
            "reason": reason,
        })
        if measured_at is not UNSET:
            field_dict["measuredAt"] = measured_at
        if block is not UNSET:
            field_dict["block"] = block
        if happened_at is not UNSET:
            field_dict["happenedAt"] = happened_at
        if source is not UNSET:
            field_dict["source"] = source

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        flagged = d.pop("flagged")

        severity = RiskFlagSeverity(d.pop("severity"))




        reason = d.pop("reason")

        def _parse_measured_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        measured_at = _parse_measured_at(d.pop("measuredAt", UNSET))


        def _parse_block(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        block = _parse_block(d.pop("block", UNSET))


        happened_at = d.pop("happenedAt", UNSET)

        _source = d.pop("source", UNSET)
        source: RiskFlagSource | Unset
        if isinstance(_source,  Unset):
            source = UNSET
        else:
            source = RiskFlagSource(_source)




        risk_flag = cls(
            flagged=flagged,
            severity=severity,
            reason=reason,
            measured_at=measured_at,
            block=block,
            happened_at=happened_at,
            source=source,
        )


        risk_flag.additional_properties = d
        return risk_flag

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
