from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.wallet_health_response_flags_item_severity import WalletHealthResponseFlagsItemSeverity






T = TypeVar("T", bound="WalletHealthResponseFlagsItem")



@_attrs_define
class WalletHealthResponseFlagsItem:
    """ 
        Attributes:
            flag (str):
            severity (WalletHealthResponseFlagsItemSeverity):
            reason (str):
     """

    flag: str
    severity: WalletHealthResponseFlagsItemSeverity
    reason: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        flag = self.flag

        severity = self.severity.value

        reason = self.reason


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "flag": flag,
            "severity": severity,
            "reason": reason,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        flag = d.pop("flag")

        severity = WalletHealthResponseFlagsItemSeverity(d.pop("severity"))




        reason = d.pop("reason")

        wallet_health_response_flags_item = cls(
            flag=flag,
            severity=severity,
            reason=reason,
        )


        wallet_health_response_flags_item.additional_properties = d
        return wallet_health_response_flags_item

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
