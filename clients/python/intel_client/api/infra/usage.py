from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.usage_response import UsageResponse
from typing import cast



def _get_kwargs(
    
) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/usage",
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | UsageResponse | None:
    if response.status_code == 200:
        response_200 = UsageResponse.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())



        return response_401

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())



        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | UsageResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,

) -> Response[Error | UsageResponse]:
    """ The caller's units billed today and what is left of each daily limit: the key's quota, its
    organisation's, the sandbox share and the service's budget (never rate limited)

     The caller's units billed today and what is left of each daily limit: the key's quota, its
    organisation's, the sandbox share and the service's budget (never rate limited). Cost: 0 units.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | UsageResponse]
     """


    kwargs = _get_kwargs(
        
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,

) -> Error | UsageResponse | None:
    """ The caller's units billed today and what is left of each daily limit: the key's quota, its
    organisation's, the sandbox share and the service's budget (never rate limited)

     The caller's units billed today and what is left of each daily limit: the key's quota, its
    organisation's, the sandbox share and the service's budget (never rate limited). Cost: 0 units.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | UsageResponse
     """


    return sync_detailed(
        client=client,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,

) -> Response[Error | UsageResponse]:
    """ The caller's units billed today and what is left of each daily limit: the key's quota, its
    organisation's, the sandbox share and the service's budget (never rate limited)

     The caller's units billed today and what is left of each daily limit: the key's quota, its
    organisation's, the sandbox share and the service's budget (never rate limited). Cost: 0 units.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | UsageResponse]
     """


    kwargs = _get_kwargs(
        
    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,

) -> Error | UsageResponse | None:
    """ The caller's units billed today and what is left of each daily limit: the key's quota, its
    organisation's, the sandbox share and the service's budget (never rate limited)

     The caller's units billed today and what is left of each daily limit: the key's quota, its
    organisation's, the sandbox share and the service's budget (never rate limited). Cost: 0 units.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | UsageResponse
     """


    return (await asyncio_detailed(
        client=client,

    )).parsed
