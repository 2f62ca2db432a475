from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.launch_buyers_bundles import LaunchBuyersBundles
  from ..models.launch_buyers_snipers import LaunchBuyersSnipers





T = TypeVar("T", bound="LaunchBuyers")



@_attrs_define
class LaunchBuyers:
    """ 
        Attributes:
            snipers (LaunchBuyersSnipers):
            bundles (LaunchBuyersBundles):
     """

    snipers: LaunchBuyersSnipers
    bundles: LaunchBuyersBundles





    def to_dict(self) -> dict[str, Any]:
        from ..models.launch_buyers_bundles import LaunchBuyersBundles # noqa: PLC0415
        from ..models.launch_buyers_snipers import LaunchBuyersSnipers # noqa: PLC0415
        snipers = self.snipers.to_dict()

        bundles = self.bundles.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "snipers": snipers,
            "bundles": bundles,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.launch_buyers_bundles import LaunchBuyersBundles # noqa: PLC0415
        from ..models.launch_buyers_snipers import LaunchBuyersSnipers # noqa: PLC0415
        d = dict(src_dict)
        snipers = LaunchBuyersSnipers.from_dict(d.pop("snipers"))




        bundles = LaunchBuyersBundles.from_dict(d.pop("bundles"))




        launch_buyers = cls(
            snipers=snipers,
            bundles=bundles,
        )

        return launch_buyers

