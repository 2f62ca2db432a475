from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.token_change import TokenChange
  from ..models.token_changes_response_current import TokenChangesResponseCurrent





T = TypeVar("T", bound="TokenChangesResponse")



@_attrs_define
class TokenChangesResponse:
    """ 
        Attributes:
            chain (str):
            token (str):
            symbol (None | str):
            as_of (str): ISO time of the last event folded into the snapshot
            age_seconds (float): seconds between asOf and the time the response was served
            since (None | str):
            changes (list[TokenChange]):
            current (TokenChangesResponseCurrent):
            headline (str):
     """

    chain: str
    token: str
    symbol: None | str
    as_of: str
    age_seconds: float
    since: None | str
    changes: list[TokenChange]
    current: TokenChangesResponseCurrent
    headline: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.token_change import TokenChange # noqa: PLC0415
        from ..models.token_changes_response_current import TokenChangesResponseCurrent # noqa: PLC0415
        chain = self.chain

        token = self.token

        symbol: None | str
        symbol = self.symbol

        as_of = self.as_of

        age_seconds = self.age_seconds

        since: None | str
        since = self.since

        changes = []
        for changes_item_data in self.changes:
            changes_item = changes_item_data.to_dict()
            changes.append(changes_item)



        current = self.current.to_dict()

        headline = self.headline


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "token": token,
            "symbol": symbol,
            "asOf": as_of,
            "ageSeconds": age_seconds,
            "since": since,
            "changes": changes,
            "current": current,
            "headline": headline,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.token_change import TokenChange # noqa: PLC0415
        from ..models.token_changes_response_current import TokenChangesResponseCurrent # noqa: PLC0415
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

        def _parse_since(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        since = _parse_since(d.pop("since"))


        changes = []
        _changes = d.pop("changes")
        for changes_item_data in (_changes):
            changes_item = TokenChange.from_dict(changes_item_data)



            changes.append(changes_item)


        current = TokenChangesResponseCurrent.from_dict(d.pop("current"))




        headline = d.pop("headline")

        token_changes_response = cls(
            chain=chain,
            token=token,
            symbol=symbol,
            as_of=as_of,
            age_seconds=age_seconds,
            since=since,
            changes=changes,
            current=current,
            headline=headline,
        )


        token_changes_response.additional_properties = d
        return token_changes_response

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
