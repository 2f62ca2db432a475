from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.batch_token_intel_response_results_item_type_1_error import BatchTokenIntelResponseResultsItemType1Error






T = TypeVar("T", bound="BatchTokenIntelResponseResultsItemType1")



@_attrs_define
class BatchTokenIntelResponseResultsItemType1:
    """ a token that could not be answered (invalid_address, not_a_token, ...): not billed

        Attributes:
            token (str): the address as sent
            error (BatchTokenIntelResponseResultsItemType1Error):
            detail (str):
     """

    token: str
    error: BatchTokenIntelResponseResultsItemType1Error
    detail: str





    def to_dict(self) -> dict[str, Any]:
        token = self.token

        error = self.error.value

        detail = self.detail


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "token": token,
            "error": error,
            "detail": detail,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        token = d.pop("token")

        error = BatchTokenIntelResponseResultsItemType1Error(d.pop("error"))




        detail = d.pop("detail")

        batch_token_intel_response_results_item_type_1 = cls(
            token=token,
            error=error,
            detail=detail,
        )

        return batch_token_intel_response_results_item_type_1

