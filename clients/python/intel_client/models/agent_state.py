from enum import StrEnum

class AgentState(StrEnum):
    ACTIVE = "active"
    EXPIRED = "expired"
    PAUSED = "paused"
    PENDING = "pending"
    REVOKED = "revoked"

    def __str__(self) -> str:
        return str(self.value)
