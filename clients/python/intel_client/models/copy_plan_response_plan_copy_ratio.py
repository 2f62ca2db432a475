from enum import StrEnum

class CopyPlanResponsePlanCopyRatio(StrEnum):
    FIXED = "fixed"
    SCALED = "scaled"

    def __str__(self) -> str:
        return str(self.value)
