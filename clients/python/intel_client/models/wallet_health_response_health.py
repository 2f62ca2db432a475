from enum import StrEnum

class WalletHealthResponseHealth(StrEnum):
    CAUTION = "caution"
    HEALTHY = "healthy"
    UNHEALTHY = "unhealthy"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return str(self.value)
