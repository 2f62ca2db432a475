from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.token_compare_response_ranked_item import TokenCompareResponseRankedItem





T = TypeVar("T", bound="TokenCompareResponse")



@_attrs_define
class TokenCompareResponse:
    """ 
        Attributes:
            chain (str):
            pick (None | str): address of the best-ranked token that is not AVOID, or null
            ranked (list[TokenCompareResponseRankedItem]):
            unknown (list[str]): addresses never seen trading on the chain
     """

    chain: str
    pick: None | str
    ranked: list[TokenCompareResponseRankedItem]
    unknown: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.token_compare_response_ranked_item import TokenCompareResponseRankedItem # noqa: PLC0415
        chain = self.chain

        pick: None | str
        pick = self.pick

        ranked = []
        for ranked_item_data in self.ranked:
            ranked_item = ranked_item_data.to_dict()
            ranked.append(ranked_item)



        unknown = self.unknown




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "pick": pick,
            "ranked": ranked,
            "unknown": unknown,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.token_compare_response_ranked_item import TokenCompareResponseRankedItem # noqa: PLC0415
        d = dict(src_dict)
        chain = d.pop("chain")

        def _parse_pick(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        pick = _parse_pick(d.pop("pick"))


        ranked = []
        _ranked = d.pop("ranked")
        for ranked_item_data in (_ranked):
            ranked_item = TokenCompareResponseRankedItem.from_dict(ranked_item_data)



            ranked.append(ranked_item)


        unknown = cast(list[str], d.pop("unknown"))


        token_compare_response = cls(
            chain=chain,
            pick=pick,
            ranked=ranked,
            unknown=unknown,
        )


        token_compare_response.additional_properties = d
        return token_compare_response

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
