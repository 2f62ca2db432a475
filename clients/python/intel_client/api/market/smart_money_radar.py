from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.smart_money_radar_chain import SmartMoneyRadarChain
from ...models.smart_money_radar_refresh import SmartMoneyRadarRefresh
from ...models.smart_money_radar_response import SmartMoneyRadarResponse
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    chain: SmartMoneyRadarChain | Unset = UNSET,
    window: int | Unset = 24,
    refresh: SmartMoneyRadarRefresh | Unset = SmartMoneyRadarRefresh.VALUE_0,
    limit: int | Unset = 20,
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

    params["window"] = window

    json_refresh: str | Unset = UNSET
    if not isinstance(refresh, Unset):
        json_refresh = refresh.value

    params["refresh"] = json_refresh

    params["limit"] = limit

    params["cursor"] = cursor


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/smart-money-radar",
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Error | SmartMoneyRadarResponse | None:
    if response.status_code == 200:
        response_200 = SmartMoneyRadarResponse.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Error | SmartMoneyRadarResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    chain: SmartMoneyRadarChain | Unset = UNSET,
    window: int | Unset = 24,
    refresh: SmartMoneyRadarRefresh | Unset = SmartMoneyRadarRefresh.VALUE_0,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | Error | SmartMoneyRadarResponse]:
    """ Tokens that wallets graded mirror-worthy are accumulating within a window

     Tokens that wallets graded mirror-worthy are accumulating within a window. Cost: 8 units.

    Args:
        chain (SmartMoneyRadarChain | Unset): Chain slug; defaults to the configured default
            chain.
        window (int | Unset): window in hours (1..168, default 24) Default: 24.
        refresh (SmartMoneyRadarRefresh | Unset): 1 bypasses the 120-second cache Default:
            SmartMoneyRadarRefresh.VALUE_0.
        limit (int | Unset): how many items (1..100, default 20) Default: 20.
        cursor (str | Unset): the `next` of the previous page; omitted: the first page
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | SmartMoneyRadarResponse]
     """


    kwargs = _get_kwargs(
        chain=chain,
window=window,
refresh=refresh,
limit=limit,
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
    chain: SmartMoneyRadarChain | Unset = UNSET,
    window: int | Unset = 24,
    refresh: SmartMoneyRadarRefresh | Unset = SmartMoneyRadarRefresh.VALUE_0,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Any | Error | SmartMoneyRadarResponse | None:
    """ Tokens that wallets graded mirror-worthy are accumulating within a window

     Tokens that wallets graded mirror-worthy are accumulating within a window. Cost: 8 units.

    Args:
        chain (SmartMoneyRadarChain | Unset): Chain slug; defaults to the configured default
            chain.
        window (int | Unset): window in hours (1..168, default 24) Default: 24.
        refresh (SmartMoneyRadarRefresh | Unset): 1 bypasses the 120-second cache Default:
            SmartMoneyRadarRefresh.VALUE_0.
        limit (int | Unset): how many items (1..100, default 20) Default: 20.
        cursor (str | Unset): the `next` of the previous page; omitted: the first page
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | SmartMoneyRadarResponse
     """


    return sync_detailed(
        client=client,
chain=chain,
window=window,
refresh=refresh,
limit=limit,
cursor=cursor,
if_none_match=if_none_match,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    chain: SmartMoneyRadarChain | Unset = UNSET,
    window: int | Unset = 24,
    refresh: SmartMoneyRadarRefresh | Unset = SmartMoneyRadarRefresh.VALUE_0,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | Error | SmartMoneyRadarResponse]:
    """ Tokens that wallets graded mirror-worthy are accumulating within a window

     Tokens that wallets graded mirror-worthy are accumulating within a window. Cost: 8 units.

    Args:
        chain (SmartMoneyRadarChain | Unset): Chain slug; defaults to the configured default
            chain.
        window (int | Unset): window in hours (1..168, default 24) Default: 24.
        refresh (SmartMoneyRadarRefresh | Unset): 1 bypasses the 120-second cache Default:
            SmartMoneyRadarRefresh.VALUE_0.
        limit (int | Unset): how many items (1..100, default 20) Default: 20.
        cursor (str | Unset): the `next` of the previous page; omitted: the first page
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | SmartMoneyRadarResponse]
     """


    kwargs = _get_kwargs(
        chain=chain,
window=window,
refresh=refresh,
limit=limit,
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
    chain: SmartMoneyRadarChain | Unset = UNSET,
    window: int | Unset = 24,
    refresh: SmartMoneyRadarRefresh | Unset = SmartMoneyRadarRefresh.VALUE_0,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Any | Error | SmartMoneyRadarResponse | None:
    """ Tokens that wallets graded mirror-worthy are accumulating within a window

     Tokens that wallets graded mirror-worthy are accumulating within a window. Cost: 8 units.

    Args:
        chain (SmartMoneyRadarChain | Unset): Chain slug; defaults to the configured default
            chain.
        window (int | Unset): window in hours (1..168, default 24) Default: 24.
        refresh (SmartMoneyRadarRefresh | Unset): 1 bypasses the 120-second cache Default:
            SmartMoneyRadarRefresh.VALUE_0.
        limit (int | Unset): how many items (1..100, default 20) Default: 20.
        cursor (str | Unset): the `next` of the previous page; omitted: the first page
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | SmartMoneyRadarResponse
     """


    return (await asyncio_detailed(
        client=client,
chain=chain,
window=window,
refresh=refresh,
limit=limit,
cursor=cursor,
if_none_match=if_none_match,

    )).parsed
