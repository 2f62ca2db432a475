from enum import StrEnum

class Resolution(StrEnum):
    VALUE_0 = "5m"
    VALUE_1 = "15m"
    VALUE_2 = "1h"
    VALUE_3 = "4h"

    def __str__(self) -> str:
        return str(self.value)
