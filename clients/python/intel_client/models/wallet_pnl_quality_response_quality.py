from enum import StrEnum

class WalletPnlQualityResponseQuality(StrEnum):
    EXCELLENT = "excellent"
    MIXED = "mixed"
    POOR = "poor"
    SOLID = "solid"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return str(self.value)
