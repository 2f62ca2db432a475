from enum import StrEnum

class TokenPriceActionResponseTrend(StrEnum):
    DOWN = "down"
    SIDEWAYS = "sideways"
    UP = "up"

    def __str__(self) -> str:
        return str(self.value)
