from enum import StrEnum

class VenueSizeBand(StrEnum):
    LARGE = "large"
    MEDIUM = "medium"
    MICRO = "micro"
    SMALL = "small"
    WHALE = "whale"

    def __str__(self) -> str:
        return str(self.value)
