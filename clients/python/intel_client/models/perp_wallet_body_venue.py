from enum import StrEnum

class PerpWalletBodyVenue(StrEnum):
    HYPERLIQUID = "hyperliquid"
    SIM = "sim"

    def __str__(self) -> str:
        return str(self.value)
