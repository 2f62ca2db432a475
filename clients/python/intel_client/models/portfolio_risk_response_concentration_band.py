from enum import StrEnum

class PortfolioRiskResponseConcentrationBand(StrEnum):
    CONCENTRATED = "concentrated"
    DIVERSIFIED = "diversified"
    MODERATE = "moderate"
    NONE = "none"

    def __str__(self) -> str:
        return str(self.value)
