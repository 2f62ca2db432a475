from enum import StrEnum

class Trend(StrEnum):
    FLAT = "flat"
    GROWING = "growing"
    SHRINKING = "shrinking"

    def __str__(self) -> str:
        return str(self.value)
