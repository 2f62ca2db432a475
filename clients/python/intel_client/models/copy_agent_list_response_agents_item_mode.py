from enum import StrEnum

class CopyAgentListResponseAgentsItemMode(StrEnum):
    LIVE = "live"
    PAPER = "paper"

    def __str__(self) -> str:
        return str(self.value)
