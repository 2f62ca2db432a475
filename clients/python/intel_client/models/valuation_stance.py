from enum import StrEnum

class ValuationStance(StrEnum):
    FAIR = "fair"
    STRETCHED = "stretched"
    UNDERVALUED = "undervalued"

    def __str__(self) -> str:
        return str(self.value)
