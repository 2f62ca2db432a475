from enum import StrEnum

class CopySimulateBodySkipRiskAtOrAbove(StrEnum):
    EXTREME = "extreme"
    HIGH = "high"
    LOW = "low"
    MODERATE = "moderate"

    def __str__(self) -> str:
        return str(self.value)
