from enum import StrEnum

class CopyPredictionLeadersVenue(StrEnum):
    POLYMARKET = "polymarket"
    SIM = "sim"

    def __str__(self) -> str:
        return str(self.value)
