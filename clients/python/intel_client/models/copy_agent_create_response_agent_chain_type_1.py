from enum import StrEnum

class CopyAgentCreateResponseAgentChainType1(StrEnum):
    HYPERLIQUID = "hyperliquid"
    POLYMARKET = "polymarket"

    def __str__(self) -> str:
        return str(self.value)
