from enum import StrEnum

class ExecutionSide(StrEnum):
    BUY = "buy"
    SELL = "sell"

    def __str__(self) -> str:
        return str(self.value)
