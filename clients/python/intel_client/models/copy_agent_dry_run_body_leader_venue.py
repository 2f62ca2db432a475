from enum import StrEnum

class CopyAgentDryRunBodyLeaderVenue(StrEnum):
    HYPERLIQUID = "hyperliquid"
    POLYMARKET = "polymarket"
    SIM = "sim"

    def __str__(self) -> str:
        return str(self.value)
