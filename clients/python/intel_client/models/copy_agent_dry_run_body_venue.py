from enum import StrEnum

class CopyAgentDryRunBodyVenue(StrEnum):
    EVM_SPOT = "evm-spot"
    HYPERLIQUID = "hyperliquid"
    POLYMARKET = "polymarket"

    def __str__(self) -> str:
        return str(self.value)
