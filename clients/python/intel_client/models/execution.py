from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.chain_slug import ChainSlug
from ..models.execution_action import ExecutionAction
from ..models.execution_chain_type_1 import ExecutionChainType1
from ..models.execution_direction_type_1 import ExecutionDirectionType1
from ..models.execution_direction_type_2_type_1 import ExecutionDirectionType2Type1
from ..models.execution_direction_type_3_type_1 import ExecutionDirectionType3Type1
from ..models.execution_side import ExecutionSide
from ..models.execution_status import ExecutionStatus
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.execution_fill import ExecutionFill





T = TypeVar("T", bound="Execution")



@_attrs_define
class Execution:
    """ 
        Attributes:
            execution_id (str):
            agent_id (str):
            leader_trade (str):
            leader_tx (str):
            chain (ChainSlug | ExecutionChainType1):
            token (str):
            side (ExecutionSide):
            leader_usd (float):
            notional_usd (float):
            status (ExecutionStatus):
            reason (None | str):
            detail (str):
            ref (None | str):
            venue_order_id (None | str):
            fills (list[ExecutionFill]):
            trade_at (float):
            created_at (int):
            updated_at (int):
            action (ExecutionAction | Unset):
            direction (ExecutionDirectionType1 | ExecutionDirectionType2Type1 | ExecutionDirectionType3Type1 | None |
                Unset):
            fraction (float | None | Unset):
            units (None | str | Unset):
     """

    execution_id: str
    agent_id: str
    leader_trade: str
    leader_tx: str
    chain: ChainSlug | ExecutionChainType1
    token: str
    side: ExecutionSide
    leader_usd: float
    notional_usd: float
    status: ExecutionStatus
    reason: None | str
    detail: str
    ref: None | str
    venue_order_id: None | str
    fills: list[ExecutionFill]
    trade_at: float
    created_at: int
    updated_at: int
    action: ExecutionAction | Unset = UNSET
    direction: ExecutionDirectionType1 | ExecutionDirectionType2Type1 | ExecutionDirectionType3Type1 | None | Unset = UNSET
    fraction: float | None | Unset = UNSET
    units: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.execution_fill import ExecutionFill # noqa: PLC0415
        execution_id = self.execution_id

        agent_id = self.agent_id

        leader_trade = self.leader_trade

        leader_tx = self.leader_tx

        chain: str
        if isinstance(self.chain, ChainSlug):
            chain = self.chain.value
        else:
            chain = self.chain.value


        token: str
        token = self.token

        side = self.side.value

        leader_usd = self.leader_usd

        notional_usd = self.notional_usd

        status = self.status.value

        reason: None | str
        reason = self.reason

        detail = self.detail

        ref: None | str
        ref = self.ref

        venue_order_id: None | str
        venue_order_id = self.venue_order_id

        fills = []
        for fills_item_data in self.fills:
            fills_item = fills_item_data.to_dict()
            fills.append(fills_item)



        trade_at = self.trade_at

        created_at = self.created_at

        updated_at = self.updated_at

        action: str | Unset = UNSET
        if not isinstance(self.action, Unset):
            action = self.action.value


        direction: None | str | Unset
        if isinstance(self.direction, Unset):
            direction = UNSET
        elif isinstance(self.direction, ExecutionDirectionType1):
            direction = self.direction.value
        elif isinstance(self.direction, ExecutionDirectionType2Type1):
            direction = self.direction.value
        elif isinstance(self.direction, ExecutionDirectionType3Type1):
            direction = self.direction.value
        else:
            direction = self.direction

        fraction: float | None | Unset
        if isinstance(self.fraction, Unset):
            fraction = UNSET
        else:
            fraction = self.fraction

        units: None | str | Unset
        if isinstance(self.units, Unset):
            units = UNSET
        else:
            units = self.units


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "executionId": execution_id,
            "agentId": agent_id,
            "leaderTrade": leader_trade,
            "leaderTx": leader_tx,
            "chain": chain,
            "token": token,
            "side": side,
            "leaderUsd": leader_usd,
            "notionalUsd": notional_usd,
            "status": status,
            "reason": reason,
            "detail": detail,
            "ref": ref,
            "venueOrderId": venue_order_id,
            "fills": fills,
            "tradeAt": trade_at,
            "createdAt": created_at,
            "updatedAt": updated_at,
        })
        if action is not UNSET:
            field_dict["action"] = action
        if direction is not UNSET:
            field_dict["direction"] = direction
        if fraction is not UNSET:
            field_dict["fraction"] = fraction
        if units is not UNSET:
            field_dict["units"] = units

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.execution_fill import ExecutionFill # noqa: PLC0415
        d = dict(src_dict)
        execution_id = d.pop("executionId")

        agent_id = d.pop("agentId")

        leader_trade = d.pop("leaderTrade")

        leader_tx = d.pop("leaderTx")

        def _parse_chain(data: object) -> ChainSlug | ExecutionChainType1:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                chain_type_0 = ChainSlug(data)



                return chain_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, str):
                raise TypeError()
            chain_type_1 = ExecutionChainType1(data)



            return chain_type_1

        chain = _parse_chain(d.pop("chain"))


        def _parse_token(data: object) -> str:
            return cast(str, data)

        token = _parse_token(d.pop("token"))


        side = ExecutionSide(d.pop("side"))




        leader_usd = d.pop("leaderUsd")

        notional_usd = d.pop("notionalUsd")

        status = ExecutionStatus(d.pop("status"))




        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))


        detail = d.pop("detail")

        def _parse_ref(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        ref = _parse_ref(d.pop("ref"))


        def _parse_venue_order_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        venue_order_id = _parse_venue_order_id(d.pop("venueOrderId"))


        fills = []
        _fills = d.pop("fills")
        for fills_item_data in (_fills):
            fills_item = ExecutionFill.from_dict(fills_item_data)



            fills.append(fills_item)


        trade_at = d.pop("tradeAt")

        created_at = d.pop("createdAt")

        updated_at = d.pop("updatedAt")

        _action = d.pop("action", UNSET)
        action: ExecutionAction | Unset
        if isinstance(_action,  Unset):
            action = UNSET
        else:
            action = ExecutionAction(_action)




        def _parse_direction(data: object) -> ExecutionDirectionType1 | ExecutionDirectionType2Type1 | ExecutionDirectionType3Type1 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                direction_type_1 = ExecutionDirectionType1(data)



                return direction_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                direction_type_2_type_1 = ExecutionDirectionType2Type1(data)



                return direction_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                direction_type_3_type_1 = ExecutionDirectionType3Type1(data)



                return direction_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ExecutionDirectionType1 | ExecutionDirectionType2Type1 | ExecutionDirectionType3Type1 | None | Unset, data)

        direction = _parse_direction(d.pop("direction", UNSET))


        def _parse_fraction(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        fraction = _parse_fraction(d.pop("fraction", UNSET))


        def _parse_units(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        units = _parse_units(d.pop("units", UNSET))


        execution = cls(
            execution_id=execution_id,
            agent_id=agent_id,
            leader_trade=leader_trade,
            leader_tx=leader_tx,
            chain=chain,
            token=token,
            side=side,
            leader_usd=leader_usd,
            notional_usd=notional_usd,
            status=status,
            reason=reason,
            detail=detail,
            ref=ref,
            venue_order_id=venue_order_id,
            fills=fills,
            trade_at=trade_at,
            created_at=created_at,
            updated_at=updated_at,
            action=action,
            direction=direction,
            fraction=fraction,
            units=units,
        )

        return execution

