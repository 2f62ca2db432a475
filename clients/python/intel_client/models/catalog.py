from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.catalog_chains_item import CatalogChainsItem
  from ..models.catalog_endpoints_item import CatalogEndpointsItem





T = TypeVar("T", bound="Catalog")



@_attrs_define
class Catalog:
    """ 
        Attributes:
            name (str):
            version (str):
            auth (str):
            metering (str):
            note (str):
            openapi (str):
            docs (str):
            count (int):
            endpoints (list[CatalogEndpointsItem]):
            chains (list[CatalogChainsItem] | Unset):
     """

    name: str
    version: str
    auth: str
    metering: str
    note: str
    openapi: str
    docs: str
    count: int
    endpoints: list[CatalogEndpointsItem]
    chains: list[CatalogChainsItem] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.catalog_chains_item import CatalogChainsItem # noqa: PLC0415
        from ..models.catalog_endpoints_item import CatalogEndpointsItem # noqa: PLC0415
        name = self.name

        version = self.version

        auth = self.auth

        metering = self.metering

        note = self.note

        openapi = self.openapi

        docs = self.docs

        count = self.count

        endpoints = []
        for endpoints_item_data in self.endpoints:
            endpoints_item = endpoints_item_data.to_dict()
            endpoints.append(endpoints_item)



        chains: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.chains, Unset):
            chains = []
            for chains_item_data in self.chains:
                chains_item = chains_item_data.to_dict()
                chains.append(chains_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "version": version,
            "auth": auth,
            "metering": metering,
            "note": note,
            "openapi": openapi,
            "docs": docs,
            "count": count,
            "endpoints": endpoints,
        })
        if chains is not UNSET:
            field_dict["chains"] = chains

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.catalog_chains_item import CatalogChainsItem # noqa: PLC0415
        from ..models.catalog_endpoints_item import CatalogEndpointsItem # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        version = d.pop("version")

        auth = d.pop("auth")

        metering = d.pop("metering")

        note = d.pop("note")

        openapi = d.pop("openapi")

        docs = d.pop("docs")

        count = d.pop("count")

        endpoints = []
        _endpoints = d.pop("endpoints")
        for endpoints_item_data in (_endpoints):
            endpoints_item = CatalogEndpointsItem.from_dict(endpoints_item_data)



            endpoints.append(endpoints_item)


        _chains = d.pop("chains", UNSET)
        chains: list[CatalogChainsItem] | Unset = UNSET
        if _chains is not UNSET:
            chains = []
            for chains_item_data in _chains:
                chains_item = CatalogChainsItem.from_dict(chains_item_data)



                chains.append(chains_item)


        catalog = cls(
            name=name,
            version=version,
            auth=auth,
            metering=metering,
            note=note,
            openapi=openapi,
            docs=docs,
            count=count,
            endpoints=endpoints,
            chains=chains,
        )

        return catalog

