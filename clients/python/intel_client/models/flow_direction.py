from enum import StrEnum

class FlowDirection(StrEnum):
    BALANCED = "balanced"
    INFLOW = "inflow"
    OUTFLOW = "outflow"

    def __str__(self) -> str:
        return str(self.value)
