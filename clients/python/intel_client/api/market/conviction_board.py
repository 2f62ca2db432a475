from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.conviction_board_chain import ConvictionBoardChain
from ...models.conviction_board_refresh import ConvictionBoardRefresh
from ...models.conviction_board_response import ConvictionBoardResponse
from ...models.error import Error
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    chain: ConvictionBoardChain | Unset = UNSET,
    limit: int | Unset = 20,
    refresh: ConvictionBoardRefresh | Unset = ConvictionBoardRefresh.VALUE_0,
    cursor: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match



    

    params: dict[str, Any] = {}

    json_chain: str | Unset = UNSET
    if not isinstance(chain, Unset):
        json_chain = chain.value

    params["chain"] = json_chain

    params["limit"] = limit

    json_refresh: str | Unset = UNSET
    if not isinstance(refresh, Unset):
        json_refresh = refresh.value

    params["refresh"] = json_refresh

    params["cursor"] = cursor


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/conviction-board",
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | ConvictionBoardResponse | Error | None:
    if response.status_code == 200:
        response_200 = ConvictionBoardResponse.from_dict(response.json())



        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | ConvictionBoardResponse | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    chain: ConvictionBoardChain | Unset = UNSET,
    limit: int | Unset = 20,
    refresh: ConvictionBoardRefresh | Unset = ConvictionBoardRefresh.VALUE_0,
    cursor: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | ConvictionBoardResponse | Error]:
    """ Tokens ranked by conviction with their six pillars

     Tokens ranked by conviction with their six pillars. Cost: 6 units.

    Args:
        chain (ConvictionBoardChain | Unset): Chain slug; defaults to the configured default
            chain.
        limit (int | Unset): how many items (1..100, default 20) Default: 20.
        refresh (ConvictionBoardRefresh | Unset): 1 bypasses the 120-second cache Default:
            ConvictionBoardRefresh.VALUE_0.
        cursor (str | Unset): the `next` of the previous page; omitted: the first page
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ConvictionBoardResponse | Error]
     """


    kwargs = _get_kwargs(
        chain=chain,
limit=limit,
refresh=refresh,
cursor=cursor,
if_none_match=if_none_match,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    chain: ConvictionBoardChain | Unset = UNSET,
    limit: int | Unset = 20,
    refresh: ConvictionBoardRefresh | Unset = ConvictionBoardRefresh.VALUE_0,
    cursor: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Any | ConvictionBoardResponse | Error | None:
    """ Tokens ranked by conviction with their six pillars

     Tokens ranked by conviction with their six pillars. Cost: 6 units.

    Args:
        chain (ConvictionBoardChain | Unset): Chain slug; defaults to the configured default
            chain.
        limit (int | Unset): how many items (1..100, default 20) Default: 20.
        refresh (ConvictionBoardRefresh | Unset): 1 bypasses the 120-second cache Default:
            ConvictionBoardRefresh.VALUE_0.
        cursor (str | Unset): the `next` of the previous page; omitted: the first page
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ConvictionBoardResponse | Error
     """


    return sync_detailed(
        client=client,
chain=chain,
limit=limit,
refresh=refresh,
cursor=cursor,
if_none_match=if_none_match,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    chain: ConvictionBoardChain | Unset = UNSET,
    limit: int | Unset = 20,
    refresh: ConvictionBoardRefresh | Unset = ConvictionBoardRefresh.VALUE_0,
    cursor: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | ConvictionBoardResponse | Error]:
    """ Tokens ranked by conviction with their six pillars

     Tokens ranked by conviction with their six pillars. Cost: 6 units.

    Args:
        chain (ConvictionBoardChain | Unset): Chain slug; defaults to the configured default
            chain.
        limit (int | Unset): how many items (1..100, default 20) Default: 20.
        refresh (ConvictionBoardRefresh | Unset): 1 bypasses the 120-second cache Default:
            ConvictionBoardRefresh.VALUE_0.
        cursor (str | Unset): the `next` of the previous page; omitted: the first page
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ConvictionBoardResponse | Error]
     """


    kwargs = _get_kwargs(
        chain=chain,
limit=limit,
refresh=refresh,
cursor=cursor,
if_none_match=if_none_match,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    chain: ConvictionBoardChain | Unset = UNSET,
    limit: int | Unset = 20,
    refresh: ConvictionBoardRefresh | Unset = ConvictionBoardRefresh.VALUE_0,
    cursor: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Any | ConvictionBoardResponse | Error | None:
    """ Tokens ranked by conviction with their six pillars

     Tokens ranked by conviction with their six pillars. Cost: 6 units.

    Args:
        chain (ConvictionBoardChain | Unset): Chain slug; defaults to the configured default
            chain.
        limit (int | Unset): how many items (1..100, default 20) Default: 20.
        refresh (ConvictionBoardRefresh | Unset): 1 bypasses the 120-second cache Default:
            ConvictionBoardRefresh.VALUE_0.
        cursor (str | Unset): the `next` of the previous page; omitted: the first page
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ConvictionBoardResponse | Error
     """


    return (await asyncio_detailed(
        client=client,
chain=chain,
limit=limit,
refresh=refresh,
cursor=cursor,
if_none_match=if_none_match,

    )).parsed
