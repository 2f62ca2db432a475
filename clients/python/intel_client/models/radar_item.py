from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.size_band_usd import SizeBandUsd
from typing import cast






T = TypeVar("T", bound="RadarItem")



@_attrs_define
class RadarItem:
    """ 
        Attributes:
            token (str): token address, for follow-up token operations
            chain (str):
            symbol (None | str):
            smart_buyers (int):
            conviction (float):
            size_band (SizeBandUsd):
     """

    token: str
    chain: str
    symbol: None | str
    smart_buyers: int
    conviction: float
    size_band: SizeBandUsd
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        token = self.token

        chain = self.chain

        symbol: None | str
        symbol = self.symbol

        smart_buyers = self.smart_buyers

        conviction = self.conviction

        size_band = self.size_band.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "token": token,
            "chain": chain,
            "symbol": symbol,
            "smartBuyers": smart_buyers,
            "conviction": conviction,
            "sizeBand": size_band,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        token = d.pop("token")

        chain = d.pop("chain")

        def _parse_symbol(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        symbol = _parse_symbol(d.pop("symbol"))


        smart_buyers = d.pop("smartBuyers")

        conviction = d.pop("conviction")

        size_band = SizeBandUsd(d.pop("sizeBand"))




        radar_item = cls(
            token=token,
            chain=chain,
            symbol=symbol,
            smart_buyers=smart_buyers,
            conviction=conviction,
            size_band=size_band,
        )


        radar_item.additional_properties = d
        return radar_item

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
