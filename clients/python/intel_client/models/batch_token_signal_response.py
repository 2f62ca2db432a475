from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.batch_token_signal_response_results_item_type_0 import BatchTokenSignalResponseResultsItemType0
  from ..models.batch_token_signal_response_results_item_type_1 import BatchTokenSignalResponseResultsItemType1





T = TypeVar("T", bound="BatchTokenSignalResponse")



@_attrs_define
class BatchTokenSignalResponse:
    """ 
        Attributes:
            chain (str):
            count (int): how many tokens were asked (results has one entry each, in order)
            answered (int): how many were answered with a result (the units billed are cost × answered)
            results (list[BatchTokenSignalResponseResultsItemType0 | BatchTokenSignalResponseResultsItemType1]):
     """

    chain: str
    count: int
    answered: int
    results: list[BatchTokenSignalResponseResultsItemType0 | BatchTokenSignalResponseResultsItemType1]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.batch_token_signal_response_results_item_type_0 import BatchTokenSignalResponseResultsItemType0 # noqa: PLC0415
        from ..models.batch_token_signal_response_results_item_type_1 import BatchTokenSignalResponseResultsItemType1 # noqa: PLC0415
        chain = self.chain

        count = self.count

        answered = self.answered

        results = []
        for results_item_data in self.results:
            results_item: dict[str, Any]
            if isinstance(results_item_data, BatchTokenSignalResponseResultsItemType0):
                results_item = results_item_data.to_dict()
            else:
                results_item = results_item_data.to_dict()

            results.append(results_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "chain": chain,
            "count": count,
            "answered": answered,
            "results": results,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.batch_token_signal_response_results_item_type_0 import BatchTokenSignalResponseResultsItemType0 # noqa: PLC0415
        from ..models.batch_token_signal_response_results_item_type_1 import BatchTokenSignalResponseResultsItemType1 # noqa: PLC0415
        d = dict(src_dict)
        chain = d.pop("chain")

        count = d.pop("count")

        answered = d.pop("answered")

        results = []
        _results = d.pop("results")
        for results_item_data in (_results):
            def _parse_results_item(data: object) -> BatchTokenSignalResponseResultsItemType0 | BatchTokenSignalResponseResultsItemType1:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    results_item_type_0 = BatchTokenSignalResponseResultsItemType0.from_dict(data)



                    return results_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                results_item_type_1 = BatchTokenSignalResponseResultsItemType1.from_dict(data)



                return results_item_type_1

            results_item = _parse_results_item(results_item_data)

            results.append(results_item)


        batch_token_signal_response = cls(
            chain=chain,
            count=count,
            answered=answered,
            results=results,
        )


        batch_token_signal_response.additional_properties = d
        return batch_token_signal_response

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
