from enum import StrEnum

class TokenPriceActionResponseStructure(StrEnum):
    HIGHER_LOWS = "higher-lows"
    LOWER_HIGHS = "lower-highs"
    MIXED = "mixed"
    RANGE = "range"

    def __str__(self) -> str:
        return str(self.value)
