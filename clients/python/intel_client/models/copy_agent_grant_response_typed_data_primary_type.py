from enum import StrEnum

class CopyAgentGrantResponseTypedDataPrimaryType(StrEnum):
    AGENTGRANT = "AgentGrant"

    def __str__(self) -> str:
        return str(self.value)
