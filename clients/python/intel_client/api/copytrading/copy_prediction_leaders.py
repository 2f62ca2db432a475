from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.copy_prediction_leaders_venue import CopyPredictionLeadersVenue
from ...models.error import Error
from ...models.venue_leaders_response import VenueLeadersResponse
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    venue: CopyPredictionLeadersVenue | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_venue: str | Unset = UNSET
    if not isinstance(venue, Unset):
        json_venue = venue.value

    params["venue"] = json_venue

    params["limit"] = limit

    params["cursor"] = cursor


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/copy/prediction-leaders",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | VenueLeadersResponse | None:
    if response.status_code == 200:
        response_200 = VenueLeadersResponse.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | VenueLeadersResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    venue: CopyPredictionLeadersVenue | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,

) -> Response[Error | VenueLeadersResponse]:
    """ Prediction-market accounts worth mirroring: mirror-worthy first, then watch, by score

     Prediction-market accounts worth mirroring: mirror-worthy first, then watch, by score. Cost: 4
    units.

    Args:
        venue (CopyPredictionLeadersVenue | Unset): Prediction venue; defaults to `polymarket`
            when the prediction adapter is configured, else `sim` (the venue simulator).
        limit (int | Unset): how many leaders (1..100, default 20) Default: 20.
        cursor (str | Unset): the `next` of the previous page; omitted: the first page

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | VenueLeadersResponse]
     """


    kwargs = _get_kwargs(
        venue=venue,
limit=limit,
cursor=cursor,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    venue: CopyPredictionLeadersVenue | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,

) -> Error | VenueLeadersResponse | None:
    """ Prediction-market accounts worth mirroring: mirror-worthy first, then watch, by score

     Prediction-market accounts worth mirroring: mirror-worthy first, then watch, by score. Cost: 4
    units.

    Args:
        venue (CopyPredictionLeadersVenue | Unset): Prediction venue; defaults to `polymarket`
            when the prediction adapter is configured, else `sim` (the venue simulator).
        limit (int | Unset): how many leaders (1..100, default 20) Default: 20.
        cursor (str | Unset): the `next` of the previous page; omitted: the first page

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | VenueLeadersResponse
     """


    return sync_detailed(
        client=client,
venue=venue,
limit=limit,
cursor=cursor,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    venue: CopyPredictionLeadersVenue | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,

) -> Response[Error | VenueLeadersResponse]:
    """ Prediction-market accounts worth mirroring: mirror-worthy first, then watch, by score

     Prediction-market accounts worth mirroring: mirror-worthy first, then watch, by score. Cost: 4
    units.

    Args:
        venue (CopyPredictionLeadersVenue | Unset): Prediction venue; defaults to `polymarket`
            when the prediction adapter is configured, else `sim` (the venue simulator).
        limit (int | Unset): how many leaders (1..100, default 20) Default: 20.
        cursor (str | Unset): the `next` of the previous page; omitted: the first page

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | VenueLeadersResponse]
     """


    kwargs = _get_kwargs(
        venue=venue,
limit=limit,
cursor=cursor,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    venue: CopyPredictionLeadersVenue | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,

) -> Error | VenueLeadersResponse | None:
    """ Prediction-market accounts worth mirroring: mirror-worthy first, then watch, by score

     Prediction-market accounts worth mirroring: mirror-worthy first, then watch, by score. Cost: 4
    units.

    Args:
        venue (CopyPredictionLeadersVenue | Unset): Prediction venue; defaults to `polymarket`
            when the prediction adapter is configured, else `sim` (the venue simulator).
        limit (int | Unset): how many leaders (1..100, default 20) Default: 20.
        cursor (str | Unset): the `next` of the previous page; omitted: the first page

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | VenueLeadersResponse
     """


    return (await asyncio_detailed(
        client=client,
venue=venue,
limit=limit,
cursor=cursor,

    )).parsed
