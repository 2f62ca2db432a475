from enum import StrEnum

class ExecutionChainType1(StrEnum):
    HYPERLIQUID = "hyperliquid"
    POLYMARKET = "polymarket"

    def __str__(self) -> str:
        return str(self.value)
