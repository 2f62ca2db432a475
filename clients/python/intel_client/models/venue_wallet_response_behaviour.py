from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.venue_hold_band import VenueHoldBand
from ..models.venue_size_band import VenueSizeBand
from ..models.venue_wallet_response_behaviour_entry_price_band_type_1 import VenueWalletResponseBehaviourEntryPriceBandType1
from ..models.venue_wallet_response_behaviour_entry_price_band_type_2_type_1 import VenueWalletResponseBehaviourEntryPriceBandType2Type1
from ..models.venue_wallet_response_behaviour_entry_price_band_type_3_type_1 import VenueWalletResponseBehaviourEntryPriceBandType3Type1
from typing import cast






T = TypeVar("T", bound="VenueWalletResponseBehaviour")



@_attrs_define
class VenueWalletResponseBehaviour:
    """ 
        Attributes:
            hold_band (None | VenueHoldBand):
            size_band (None | VenueSizeBand):
            flip_share_pct (float):
            long_share_pct (float | None):
            entry_price_band (None | VenueWalletResponseBehaviourEntryPriceBandType1 |
                VenueWalletResponseBehaviourEntryPriceBandType2Type1 | VenueWalletResponseBehaviourEntryPriceBandType3Type1):
            copyable_share_pct (float | None):
     """

    hold_band: None | VenueHoldBand
    size_band: None | VenueSizeBand
    flip_share_pct: float
    long_share_pct: float | None
    entry_price_band: None | VenueWalletResponseBehaviourEntryPriceBandType1 | VenueWalletResponseBehaviourEntryPriceBandType2Type1 | VenueWalletResponseBehaviourEntryPriceBandType3Type1
    copyable_share_pct: float | None





    def to_dict(self) -> dict[str, Any]:
        hold_band: None | str
        if isinstance(self.hold_band, VenueHoldBand):
            hold_band = self.hold_band.value
        else:
            hold_band = self.hold_band

        size_band: None | str
        if isinstance(self.size_band, VenueSizeBand):
            size_band = self.size_band.value
        else:
            size_band = self.size_band

        flip_share_pct = self.flip_share_pct

        long_share_pct: float | None
        long_share_pct = self.long_share_pct

        entry_price_band: None | str
        if isinstance(self.entry_price_band, VenueWalletResponseBehaviourEntryPriceBandType1):
            entry_price_band = self.entry_price_band.value
        elif isinstance(self.entry_price_band, VenueWalletResponseBehaviourEntryPriceBandType2Type1):
            entry_price_band = self.entry_price_band.value
        elif isinstance(self.entry_price_band, VenueWalletResponseBehaviourEntryPriceBandType3Type1):
            entry_price_band = self.entry_price_band.value
        else:
            entry_price_band = self.entry_price_band

        copyable_share_pct: float | None
        copyable_share_pct = self.copyable_share_pct


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "holdBand": hold_band,
            "sizeBand": size_band,
            "flipSharePct": flip_share_pct,
            "longSharePct": long_share_pct,
            "entryPriceBand": entry_price_band,
            "copyableSharePct": copyable_share_pct,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_hold_band(data: object) -> None | VenueHoldBand:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                hold_band_type_0 = VenueHoldBand(data)



                return hold_band_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | VenueHoldBand, data)

        hold_band = _parse_hold_band(d.pop("holdBand"))


        def _parse_size_band(data: object) -> None | VenueSizeBand:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                size_band_type_0 = VenueSizeBand(data)



                return size_band_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | VenueSizeBand, data)

        size_band = _parse_size_band(d.pop("sizeBand"))


        flip_share_pct = d.pop("flipSharePct")

        def _parse_long_share_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        long_share_pct = _parse_long_share_pct(d.pop("longSharePct"))


        def _parse_entry_price_band(data: object) -> None | VenueWalletResponseBehaviourEntryPriceBandType1 | VenueWalletResponseBehaviourEntryPriceBandType2Type1 | VenueWalletResponseBehaviourEntryPriceBandType3Type1:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                entry_price_band_type_1 = VenueWalletResponseBehaviourEntryPriceBandType1(data)



                return entry_price_band_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                entry_price_band_type_2_type_1 = VenueWalletResponseBehaviourEntryPriceBandType2Type1(data)



                return entry_price_band_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                entry_price_band_type_3_type_1 = VenueWalletResponseBehaviourEntryPriceBandType3Type1(data)



                return entry_price_band_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | VenueWalletResponseBehaviourEntryPriceBandType1 | VenueWalletResponseBehaviourEntryPriceBandType2Type1 | VenueWalletResponseBehaviourEntryPriceBandType3Type1, data)

        entry_price_band = _parse_entry_price_band(d.pop("entryPriceBand"))


        def _parse_copyable_share_pct(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        copyable_share_pct = _parse_copyable_share_pct(d.pop("copyableSharePct"))


        venue_wallet_response_behaviour = cls(
            hold_band=hold_band,
            size_band=size_band,
            flip_share_pct=flip_share_pct,
            long_share_pct=long_share_pct,
            entry_price_band=entry_price_band,
            copyable_share_pct=copyable_share_pct,
        )

        return venue_wallet_response_behaviour

