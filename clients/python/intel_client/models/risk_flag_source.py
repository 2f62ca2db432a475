from enum import StrEnum

class RiskFlagSource(StrEnum):
    CONTRACT = "contract"
    TRADES = "trades"

    def __str__(self) -> str:
        return str(self.value)
