from enum import StrEnum

class CopyPerpLeadersVenue(StrEnum):
    HYPERLIQUID = "hyperliquid"
    SIM = "sim"

    def __str__(self) -> str:
        return str(self.value)
