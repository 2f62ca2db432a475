from enum import StrEnum

class TokenPriceActionBodyChain(StrEnum):
    ARBITRUM = "arbitrum"
    BASE = "base"
    BSC = "bsc"
    DEVNET = "devnet"
    ETHEREUM = "ethereum"
    OPTIMISM = "optimism"
    POLYGON = "polygon"
    SIM = "sim"

    def __str__(self) -> str:
        return str(self.value)
