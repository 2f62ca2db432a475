from enum import StrEnum

class MarketRegime(StrEnum):
    NEUTRAL = "neutral"
    RISK_OFF = "risk-off"
    RISK_ON = "risk-on"

    def __str__(self) -> str:
        return str(self.value)
