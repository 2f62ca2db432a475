from enum import StrEnum

class TokenSignalValue(StrEnum):
    ACCUMULATE = "ACCUMULATE"
    AVOID = "AVOID"
    BUY = "BUY"
    HOLD = "HOLD"

    def __str__(self) -> str:
        return str(self.value)
