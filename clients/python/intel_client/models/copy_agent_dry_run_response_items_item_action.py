from enum import StrEnum

class CopyAgentDryRunResponseItemsItemAction(StrEnum):
    CLOSE = "close"
    OPEN = "open"

    def __str__(self) -> str:
        return str(self.value)
