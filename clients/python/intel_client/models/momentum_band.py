from enum import StrEnum

class MomentumBand(StrEnum):
    FALLING = "falling"
    FLAT = "flat"
    RISING = "rising"
    SURGING = "surging"

    def __str__(self) -> str:
        return str(self.value)
