from enum import StrEnum

class RiskFlagSeverity(StrEnum):
    NONE = "none"
    RED = "red"
    WARNING = "warning"

    def __str__(self) -> str:
        return str(self.value)
