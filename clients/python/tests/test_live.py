"""Three operations through the generated client against a running app (INTEL_BASE_URL, INTEL_API_KEY)."""

import os

import pytest

from intel_client import AuthenticatedClient
from intel_client.api.infra import usage
from intel_client.api.market import market_movers
from intel_client.api.token import token_intel
from intel_client.models import Error, MarketMoversResponse, TokenIntelBody, TokenIntelResponse


@pytest.fixture(scope="module")
def intel() -> AuthenticatedClient:
    return AuthenticatedClient(base_url=os.environ["INTEL_BASE_URL"], token=os.environ["INTEL_API_KEY"])


def test_movers_then_the_intel_of_the_top_token(intel: AuthenticatedClient) -> None:
    movers = market_movers.sync(client=intel, limit=3)
    assert isinstance(movers, MarketMoversResponse)
    assert 0 < len(movers.movers) <= 3
    top = movers.movers[0].token
    answer = token_intel.sync_detailed(client=intel, body=TokenIntelBody(token=top))
    assert answer.status_code == 200
    assert isinstance(answer.parsed, TokenIntelResponse)
    assert answer.parsed.token == top
    assert answer.headers["x-usage-units"] == "1"


def test_a_bad_address_is_the_api_error(intel: AuthenticatedClient) -> None:
    answer = token_intel.sync_detailed(client=intel, body=TokenIntelBody(token="0x1234"))
    assert answer.status_code == 400
    assert isinstance(answer.parsed, Error)
    assert answer.parsed.error == "invalid_address"


def test_usage_counts_the_calls(intel: AuthenticatedClient) -> None:
    today = usage.sync(client=intel)
    assert not isinstance(today, Error)
    assert today.by_operation.additional_properties.get("tokenIntel") == 1
    assert today.by_operation.additional_properties.get("marketMovers") == 1
