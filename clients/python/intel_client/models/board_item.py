from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.pillars import Pillars





T = TypeVar("T", bound="BoardItem")



@_attrs_define
class BoardItem:
    """ 
        Attributes:
            token (str): token address, for follow-up token operations
            chain (str):
            symbol (None | str):
            conviction (float):
            pillars_lit (int):
            pillars (Pillars):
     """

    token: str
    chain: str
    symbol: None | str
    conviction: float
    pillars_lit: int
    pillars: Pillars
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.pillars import Pillars # noqa: PLC0415
        token = self.token

        chain = self.chain

        symbol: None | str
        symbol = self.symbol

        conviction = self.conviction

        pillars_lit = self.pillars_lit

        pillars = self.pillars.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "token": token,
            "chain": chain,
            "symbol": symbol,
            "conviction": conviction,
            "pillarsLit": pillars_lit,
            "pillars": pillars,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.pillars import Pillars # noqa: PLC0415
        d = dict(src_dict)
        token = d.pop("token")

        chain = d.pop("chain")

        def _parse_symbol(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        symbol = _parse_symbol(d.pop("symbol"))


        conviction = d.pop("conviction")

        pillars_lit = d.pop("pillarsLit")

        pillars = Pillars.from_dict(d.pop("pillars"))




        board_item = cls(
            token=token,
            chain=chain,
            symbol=symbol,
            conviction=conviction,
            pillars_lit=pillars_lit,
            pillars=pillars,
        )


        board_item.additional_properties = d
        return board_item

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
