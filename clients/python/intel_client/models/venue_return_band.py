from enum import StrEnum

class VenueReturnBand(StrEnum):
    FLAT = "flat"
    GAIN = "gain"
    HEAVY_LOSS = "heavy-loss"
    LOSS = "loss"
    STRONG_GAIN = "strong-gain"

    def __str__(self) -> str:
        return str(self.value)
