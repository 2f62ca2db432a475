from enum import StrEnum

class ExecutionStatus(StrEnum):
    FAILED = "failed"
    FILLED = "filled"
    PLANNED = "planned"
    SKIPPED = "skipped"
    SUBMITTED = "submitted"

    def __str__(self) -> str:
        return str(self.value)
