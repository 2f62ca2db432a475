from enum import StrEnum

class SizeBandUsd(StrEnum):
    LARGE = "large"
    MEDIUM = "medium"
    SMALL = "small"
    WHALE = "whale"

    def __str__(self) -> str:
        return str(self.value)
