from enum import StrEnum

class CopyAgentDryRunResponseItemsItemDecision(StrEnum):
    COPY = "copy"
    SKIP = "skip"

    def __str__(self) -> str:
        return str(self.value)
