from enum import StrEnum

class ExecutionDirectionType3Type1(StrEnum):
    LONG = "long"
    SHORT = "short"

    def __str__(self) -> str:
        return str(self.value)
