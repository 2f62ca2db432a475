from enum import StrEnum

class ExitRiskResponseDirection(StrEnum):
    IMPROVING = "improving"
    STABLE = "stable"
    WORSENING = "worsening"

    def __str__(self) -> str:
        return str(self.value)
