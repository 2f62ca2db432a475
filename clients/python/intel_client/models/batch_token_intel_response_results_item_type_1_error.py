from enum import StrEnum

class BatchTokenIntelResponseResultsItemType1Error(StrEnum):
    ANALYSIS_FAILED = "analysis_failed"
    CAPACITY = "capacity"
    CSRF_INVALID = "csrf_invalid"
    DOSSIER_FAILED = "dossier_failed"
    EXECUTION_UNAVAILABLE = "execution_unavailable"
    FORBIDDEN = "forbidden"
    GATEWAY_UNCONFIGURED = "gateway_unconfigured"
    INTERNAL = "internal"
    INVALID_ADDRESS = "invalid_address"
    INVALID_API_KEY = "invalid_api_key"
    INVALID_CHAIN = "invalid_chain"
    INVALID_PARAM = "invalid_param"
    INVALID_STATE = "invalid_state"
    KEY_LIMIT = "key_limit"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    NOT_A_TOKEN = "not_a_token"
    NOT_FOUND = "not_found"
    PAYLOAD_TOO_LARGE = "payload_too_large"
    RATE_LIMITED = "rate_limited"
    RESUME_UNAVAILABLE = "resume_unavailable"
    SIGNIN_FAILED = "signin_failed"
    SIGNIN_REQUIRED = "signin_required"
    UNAVAILABLE = "unavailable"
    UNKNOWN_PARAM = "unknown_param"
    UPGRADE_REQUIRED = "upgrade_required"
    VENUE_NOT_ENTITLED = "venue_not_entitled"
    WALLET_AUTH_EXPIRED = "wallet_auth_expired"
    WALLET_AUTH_REQUIRED = "wallet_auth_required"

    def __str__(self) -> str:
        return str(self.value)
