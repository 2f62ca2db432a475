from enum import StrEnum

class VenueProfitFactorBand(StrEnum):
    BREAKEVEN = "breakeven"
    LOSING = "losing"
    PROFITABLE = "profitable"
    STRONG = "strong"

    def __str__(self) -> str:
        return str(self.value)
