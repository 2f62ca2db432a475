from enum import StrEnum

class WebhookEventType(StrEnum):
    AGENT_ACTIVATED = "agent.activated"
    AGENT_CREATED = "agent.created"
    AGENT_EXPIRED = "agent.expired"
    AGENT_PAUSED = "agent.paused"
    AGENT_REVOKED = "agent.revoked"
    BOARD_CHANGED = "board.changed"
    EXECUTION_FAILED = "execution.failed"
    EXECUTION_FILLED = "execution.filled"
    EXECUTION_PLANNED = "execution.planned"
    EXECUTION_SKIPPED = "execution.skipped"
    EXECUTION_SUBMITTED = "execution.submitted"
    TOKEN_CHANGED = "token.changed"
    WALLET_GRADE = "wallet.grade"
    WEBHOOK_TEST = "webhook.test"

    def __str__(self) -> str:
        return str(self.value)
