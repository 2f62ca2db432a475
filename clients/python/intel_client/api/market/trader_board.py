from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.trader_board_chain import TraderBoardChain
from ...models.trader_board_response import TraderBoardResponse
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    chain: TraderBoardChain | Unset = UNSET,
    limit: int | Unset = 20,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_chain: str | Unset = UNSET
    if not isinstance(chain, Unset):
        json_chain = chain.value

    params["chain"] = json_chain

    params["limit"] = limit


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/trader-board",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | TraderBoardResponse | None:
    if response.status_code == 200:
        response_200 = TraderBoardResponse.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())



        return response_401

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())



        return response_429

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())



        return response_500

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | TraderBoardResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    chain: TraderBoardChain | Unset = UNSET,
    limit: int | Unset = 20,

) -> Response[Error | TraderBoardResponse]:
    """ The chain's traders at a glance: grades, styles, the leaders and what mirror-worthy wallets hold

     The chain's traders at a glance: grades, styles, the leaders and what mirror-worthy wallets hold.
    Cost: 6 units.

    Args:
        chain (TraderBoardChain | Unset): Chain slug; defaults to the configured default chain.
        limit (int | Unset): how many items (1..100, default 20) Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TraderBoardResponse]
     """


    kwargs = _get_kwargs(
        chain=chain,
limit=limit,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    chain: TraderBoardChain | Unset = UNSET,
    limit: int | Unset = 20,

) -> Error | TraderBoardResponse | None:
    """ The chain's traders at a glance: grades, styles, the leaders and what mirror-worthy wallets hold

     The chain's traders at a glance: grades, styles, the leaders and what mirror-worthy wallets hold.
    Cost: 6 units.

    Args:
        chain (TraderBoardChain | Unset): Chain slug; defaults to the configured default chain.
        limit (int | Unset): how many items (1..100, default 20) Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TraderBoardResponse
     """


    return sync_detailed(
        client=client,
chain=chain,
limit=limit,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    chain: TraderBoardChain | Unset = UNSET,
    limit: int | Unset = 20,

) -> Response[Error | TraderBoardResponse]:
    """ The chain's traders at a glance: grades, styles, the leaders and what mirror-worthy wallets hold

     The chain's traders at a glance: grades, styles, the leaders and what mirror-worthy wallets hold.
    Cost: 6 units.

    Args:
        chain (TraderBoardChain | Unset): Chain slug; defaults to the configured default chain.
        limit (int | Unset): how many items (1..100, default 20) Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TraderBoardResponse]
     """


    kwargs = _get_kwargs(
        chain=chain,
limit=limit,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    chain: TraderBoardChain | Unset = UNSET,
    limit: int | Unset = 20,

) -> Error | TraderBoardResponse | None:
    """ The chain's traders at a glance: grades, styles, the leaders and what mirror-worthy wallets hold

     The chain's traders at a glance: grades, styles, the leaders and what mirror-worthy wallets hold.
    Cost: 6 units.

    Args:
        chain (TraderBoardChain | Unset): Chain slug; defaults to the configured default chain.
        limit (int | Unset): how many items (1..100, default 20) Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TraderBoardResponse
     """


    return (await asyncio_detailed(
        client=client,
chain=chain,
limit=limit,

    )).parsed
