from enum import StrEnum

class CopyAgentDryRunResponseItemsItemSide(StrEnum):
    BUY = "buy"
    SELL = "sell"

    def __str__(self) -> str:
        return str(self.value)
