from enum import StrEnum

class Horizon(StrEnum):
    VALUE_0 = "1d"
    VALUE_1 = "7d"

    def __str__(self) -> str:
        return str(self.value)
