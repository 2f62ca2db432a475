from enum import StrEnum

class CopyAgentCreateBodyLeaderVenue(StrEnum):
    HYPERLIQUID = "hyperliquid"
    POLYMARKET = "polymarket"
    SIM = "sim"

    def __str__(self) -> str:
        return str(self.value)
