from enum import StrEnum

class PredictionWalletBodyVenue(StrEnum):
    POLYMARKET = "polymarket"
    SIM = "sim"

    def __str__(self) -> str:
        return str(self.value)
