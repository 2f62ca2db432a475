from enum import StrEnum

class VolumeBand(StrEnum):
    EXTREME = "extreme"
    HIGH = "high"
    LOW = "low"
    MODERATE = "moderate"
    QUIET = "quiet"

    def __str__(self) -> str:
        return str(self.value)
