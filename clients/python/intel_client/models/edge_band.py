from enum import StrEnum

class EdgeBand(StrEnum):
    NEGATIVE = "negative"
    NONE = "none"
    POSITIVE = "positive"
    STRONG = "strong"

    def __str__(self) -> str:
        return str(self.value)
