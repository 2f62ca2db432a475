from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.severity import Severity
from typing import cast






T = TypeVar("T", bound="TokenChange")



@_attrs_define
class TokenChange:
    """ 
        Attributes:
            metric (str):
            from_ (bool | float | None | str):
            to (bool | float | None | str):
            severity (Severity):
     """

    metric: str
    from_: bool | float | None | str
    to: bool | float | None | str
    severity: Severity
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        metric = self.metric

        from_: bool | float | None | str
        from_ = self.from_

        to: bool | float | None | str
        to = self.to

        severity = self.severity.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "metric": metric,
            "from": from_,
            "to": to,
            "severity": severity,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        metric = d.pop("metric")

        def _parse_from_(data: object) -> bool | float | None | str:
            if data is None:
                return data
            return cast(bool | float | None | str, data)

        from_ = _parse_from_(d.pop("from"))


        def _parse_to(data: object) -> bool | float | None | str:
            if data is None:
                return data
            return cast(bool | float | None | str, data)

        to = _parse_to(d.pop("to"))


        severity = Severity(d.pop("severity"))




        token_change = cls(
            metric=metric,
            from_=from_,
            to=to,
            severity=severity,
        )


        token_change.additional_properties = d
        return token_change

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
