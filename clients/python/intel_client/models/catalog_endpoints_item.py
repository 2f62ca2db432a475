from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.catalog_endpoints_item_method import CatalogEndpointsItemMethod
from typing import cast

if TYPE_CHECKING:
  from ..models.catalog_endpoints_item_input import CatalogEndpointsItemInput





T = TypeVar("T", bound="CatalogEndpointsItem")



@_attrs_define
class CatalogEndpointsItem:
    """ 
        Attributes:
            path (str):
            method (CatalogEndpointsItemMethod):
            cost (int):
            input_ (CatalogEndpointsItemInput):
            returns (str):
            group (str):
     """

    path: str
    method: CatalogEndpointsItemMethod
    cost: int
    input_: CatalogEndpointsItemInput
    returns: str
    group: str





    def to_dict(self) -> dict[str, Any]:
        from ..models.catalog_endpoints_item_input import CatalogEndpointsItemInput # noqa: PLC0415
        path = self.path

        method = self.method.value

        cost = self.cost

        input_ = self.input_.to_dict()

        returns = self.returns

        group = self.group


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "path": path,
            "method": method,
            "cost": cost,
            "input": input_,
            "returns": returns,
            "group": group,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.catalog_endpoints_item_input import CatalogEndpointsItemInput # noqa: PLC0415
        d = dict(src_dict)
        path = d.pop("path")

        method = CatalogEndpointsItemMethod(d.pop("method"))




        cost = d.pop("cost")

        input_ = CatalogEndpointsItemInput.from_dict(d.pop("input"))




        returns = d.pop("returns")

        group = d.pop("group")

        catalog_endpoints_item = cls(
            path=path,
            method=method,
            cost=cost,
            input_=input_,
            returns=returns,
            group=group,
        )

        return catalog_endpoints_item

