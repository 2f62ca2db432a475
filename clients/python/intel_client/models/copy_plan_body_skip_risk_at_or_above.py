from enum import StrEnum

class CopyPlanBodySkipRiskAtOrAbove(StrEnum):
    EXTREME = "extreme"
    HIGH = "high"
    LOW = "low"
    MODERATE = "moderate"

    def __str__(self) -> str:
        return str(self.value)
