from enum import StrEnum

class TokenPriceActionResponseBreakout(StrEnum):
    ABOVE_RANGE = "above-range"
    BELOW_RANGE = "below-range"
    NONE = "none"

    def __str__(self) -> str:
        return str(self.value)
