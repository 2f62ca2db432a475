from enum import StrEnum

class ExecutionDirectionType1(StrEnum):
    LONG = "long"
    SHORT = "short"

    def __str__(self) -> str:
        return str(self.value)
