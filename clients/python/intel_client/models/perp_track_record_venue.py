from enum import StrEnum

class PerpTrackRecordVenue(StrEnum):
    HYPERLIQUID = "hyperliquid"
    SIM = "sim"

    def __str__(self) -> str:
        return str(self.value)
