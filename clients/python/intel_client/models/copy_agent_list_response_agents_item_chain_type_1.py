from enum import StrEnum

class CopyAgentListResponseAgentsItemChainType1(StrEnum):
    HYPERLIQUID = "hyperliquid"
    POLYMARKET = "polymarket"

    def __str__(self) -> str:
        return str(self.value)
