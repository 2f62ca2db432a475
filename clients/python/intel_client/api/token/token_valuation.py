from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.token_valuation_body import TokenValuationBody
from ...models.token_valuation_response import TokenValuationResponse
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: TokenValuationBody,
    if_none_match: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/token-valuation",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Error | TokenValuationResponse | None:
    if response.status_code == 200:
        response_200 = TokenValuationResponse.from_dict(response.json())



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

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())



        return response_404

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())



        return response_413

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Error | TokenValuationResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: TokenValuationBody,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | Error | TokenValuationResponse]:
    """ Relative valuation stance (undervalued, fair, stretched) with its signals

     Relative valuation stance (undervalued, fair, stretched) with its signals. Cost: 1 unit.

    Args:
        if_none_match (str | Unset):
        body (TokenValuationBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | TokenValuationResponse]
     """


    kwargs = _get_kwargs(
        body=body,
if_none_match=if_none_match,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: TokenValuationBody,
    if_none_match: str | Unset = UNSET,

) -> Any | Error | TokenValuationResponse | None:
    """ Relative valuation stance (undervalued, fair, stretched) with its signals

     Relative valuation stance (undervalued, fair, stretched) with its signals. Cost: 1 unit.

    Args:
        if_none_match (str | Unset):
        body (TokenValuationBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | TokenValuationResponse
     """


    return sync_detailed(
        client=client,
body=body,
if_none_match=if_none_match,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: TokenValuationBody,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | Error | TokenValuationResponse]:
    """ Relative valuation stance (undervalued, fair, stretched) with its signals

     Relative valuation stance (undervalued, fair, stretched) with its signals. Cost: 1 unit.

    Args:
        if_none_match (str | Unset):
        body (TokenValuationBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | TokenValuationResponse]
     """


    kwargs = _get_kwargs(
        body=body,
if_none_match=if_none_match,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: TokenValuationBody,
    if_none_match: str | Unset = UNSET,

) -> Any | Error | TokenValuationResponse | None:
    """ Relative valuation stance (undervalued, fair, stretched) with its signals

     Relative valuation stance (undervalued, fair, stretched) with its signals. Cost: 1 unit.

    Args:
        if_none_match (str | Unset):
        body (TokenValuationBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | TokenValuationResponse
     """


    return (await asyncio_detailed(
        client=client,
body=body,
if_none_match=if_none_match,

    )).parsed
