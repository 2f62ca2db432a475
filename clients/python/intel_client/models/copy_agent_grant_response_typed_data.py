from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.copy_agent_grant_response_typed_data_primary_type import CopyAgentGrantResponseTypedDataPrimaryType
from typing import cast

if TYPE_CHECKING:
  from ..models.copy_agent_grant_response_typed_data_domain import CopyAgentGrantResponseTypedDataDomain
  from ..models.copy_agent_grant_response_typed_data_message import CopyAgentGrantResponseTypedDataMessage
  from ..models.copy_agent_grant_response_typed_data_types import CopyAgentGrantResponseTypedDataTypes





T = TypeVar("T", bound="CopyAgentGrantResponseTypedData")



@_attrs_define
class CopyAgentGrantResponseTypedData:
    """ EIP-712 typed data (eth_signTypedData_v4): venue, chain, leader, account, session key, caps, limits, expiry,
    timestamp; its signature is the X-Wallet-Signature of /copy/agent/create

        Attributes:
            domain (CopyAgentGrantResponseTypedDataDomain):
            types (CopyAgentGrantResponseTypedDataTypes):
            primary_type (CopyAgentGrantResponseTypedDataPrimaryType):
            message (CopyAgentGrantResponseTypedDataMessage):
     """

    domain: CopyAgentGrantResponseTypedDataDomain
    types: CopyAgentGrantResponseTypedDataTypes
    primary_type: CopyAgentGrantResponseTypedDataPrimaryType
    message: CopyAgentGrantResponseTypedDataMessage





    def to_dict(self) -> dict[str, Any]:
        from ..models.copy_agent_grant_response_typed_data_domain import CopyAgentGrantResponseTypedDataDomain # noqa: PLC0415
        from ..models.copy_agent_grant_response_typed_data_message import CopyAgentGrantResponseTypedDataMessage # noqa: PLC0415
        from ..models.copy_agent_grant_response_typed_data_types import CopyAgentGrantResponseTypedDataTypes # noqa: PLC0415
        domain = self.domain.to_dict()

        types = self.types.to_dict()

        primary_type = self.primary_type.value

        message = self.message.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "domain": domain,
            "types": types,
            "primaryType": primary_type,
            "message": message,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.copy_agent_grant_response_typed_data_domain import CopyAgentGrantResponseTypedDataDomain # noqa: PLC0415
        from ..models.copy_agent_grant_response_typed_data_message import CopyAgentGrantResponseTypedDataMessage # noqa: PLC0415
        from ..models.copy_agent_grant_response_typed_data_types import CopyAgentGrantResponseTypedDataTypes # noqa: PLC0415
        d = dict(src_dict)
        domain = CopyAgentGrantResponseTypedDataDomain.from_dict(d.pop("domain"))




        types = CopyAgentGrantResponseTypedDataTypes.from_dict(d.pop("types"))




        primary_type = CopyAgentGrantResponseTypedDataPrimaryType(d.pop("primaryType"))




        message = CopyAgentGrantResponseTypedDataMessage.from_dict(d.pop("message"))




        copy_agent_grant_response_typed_data = cls(
            domain=domain,
            types=types,
            primary_type=primary_type,
            message=message,
        )

        return copy_agent_grant_response_typed_data

