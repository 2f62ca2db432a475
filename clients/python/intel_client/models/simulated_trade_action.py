from enum import StrEnum

class SimulatedTradeAction(StrEnum):
    COPIED = "copied"
    SKIPPED = "skipped"

    def __str__(self) -> str:
        return str(self.value)
