from enum import StrEnum

class DepthBand(StrEnum):
    DEEP = "deep"
    MODERATE = "moderate"
    THIN = "thin"

    def __str__(self) -> str:
        return str(self.value)
