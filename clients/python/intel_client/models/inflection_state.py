from enum import StrEnum

class InflectionState(StrEnum):
    BREAKING_OUT = "breaking-out"
    COILING = "coiling"

    def __str__(self) -> str:
        return str(self.value)
