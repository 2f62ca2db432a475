from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.perp_track_record_venue import PerpTrackRecordVenue
from ...models.venue_track_record_response import VenueTrackRecordResponse
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    venue: PerpTrackRecordVenue | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_venue: str | Unset = UNSET
    if not isinstance(venue, Unset):
        json_venue = venue.value

    params["venue"] = json_venue


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/perp-track-record",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | VenueTrackRecordResponse | None:
    if response.status_code == 200:
        response_200 = VenueTrackRecordResponse.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | VenueTrackRecordResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    venue: PerpTrackRecordVenue | Unset = UNSET,

) -> Response[Error | VenueTrackRecordResponse]:
    """ Whether perpetuals grades carried signal: hit rates per grade and horizon, misses included, sample
    sizes stated

     Whether perpetuals grades carried signal: hit rates per grade and horizon, misses included, sample
    sizes stated. Cost: 3 units.

    Args:
        venue (PerpTrackRecordVenue | Unset): Perpetuals venue; defaults to `hyperliquid` when the
            perps adapter is configured, else `sim` (the venue simulator).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | VenueTrackRecordResponse]
     """


    kwargs = _get_kwargs(
        venue=venue,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    venue: PerpTrackRecordVenue | Unset = UNSET,

) -> Error | VenueTrackRecordResponse | None:
    """ Whether perpetuals grades carried signal: hit rates per grade and horizon, misses included, sample
    sizes stated

     Whether perpetuals grades carried signal: hit rates per grade and horizon, misses included, sample
    sizes stated. Cost: 3 units.

    Args:
        venue (PerpTrackRecordVenue | Unset): Perpetuals venue; defaults to `hyperliquid` when the
            perps adapter is configured, else `sim` (the venue simulator).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | VenueTrackRecordResponse
     """


    return sync_detailed(
        client=client,
venue=venue,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    venue: PerpTrackRecordVenue | Unset = UNSET,

) -> Response[Error | VenueTrackRecordResponse]:
    """ Whether perpetuals grades carried signal: hit rates per grade and horizon, misses included, sample
    sizes stated

     Whether perpetuals grades carried signal: hit rates per grade and horizon, misses included, sample
    sizes stated. Cost: 3 units.

    Args:
        venue (PerpTrackRecordVenue | Unset): Perpetuals venue; defaults to `hyperliquid` when the
            perps adapter is configured, else `sim` (the venue simulator).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | VenueTrackRecordResponse]
     """


    kwargs = _get_kwargs(
        venue=venue,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    venue: PerpTrackRecordVenue | Unset = UNSET,

) -> Error | VenueTrackRecordResponse | None:
    """ Whether perpetuals grades carried signal: hit rates per grade and horizon, misses included, sample
    sizes stated

     Whether perpetuals grades carried signal: hit rates per grade and horizon, misses included, sample
    sizes stated. Cost: 3 units.

    Args:
        venue (PerpTrackRecordVenue | Unset): Perpetuals venue; defaults to `hyperliquid` when the
            perps adapter is configured, else `sim` (the venue simulator).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | VenueTrackRecordResponse
     """


    return (await asyncio_detailed(
        client=client,
venue=venue,

    )).parsed
