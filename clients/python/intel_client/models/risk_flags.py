from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.risk_flag import RiskFlag





T = TypeVar("T", bound="RiskFlags")



@_attrs_define
class RiskFlags:
    """ 
        Attributes:
            rug (RiskFlag):
            honeypot (RiskFlag):
            concentration (RiskFlag):
            contract (RiskFlag | Unset):
     """

    rug: RiskFlag
    honeypot: RiskFlag
    concentration: RiskFlag
    contract: RiskFlag | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.risk_flag import RiskFlag # noqa: PLC0415
        rug = self.rug.to_dict()

        honeypot = self.honeypot.to_dict()

        concentration = self.concentration.to_dict()

        contract: dict[str, Any] | Unset = UNSET
        if not isinstance(self.contract, Unset):
            contract = self.contract.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "rug": rug,
            "honeypot": honeypot,
            "concentration": concentration,
        })
        if contract is not UNSET:
            field_dict["contract"] = contract

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.risk_flag import RiskFlag # noqa: PLC0415
        d = dict(src_dict)
        rug = RiskFlag.from_dict(d.pop("rug"))




        honeypot = RiskFlag.from_dict(d.pop("honeypot"))




        concentration = RiskFlag.from_dict(d.pop("concentration"))




        _contract = d.pop("contract", UNSET)
        contract: RiskFlag | Unset
        if isinstance(_contract,  Unset):
            contract = UNSET
        else:
            contract = RiskFlag.from_dict(_contract)




        risk_flags = cls(
            rug=rug,
            honeypot=honeypot,
            concentration=concentration,
            contract=contract,
        )


        risk_flags.additional_properties = d
        return risk_flags

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
