from enum import StrEnum

class WhaleShape(StrEnum):
    DISTRIBUTED = "distributed"
    SINGLE_WHALE = "single-whale"
    TOP_HEAVY = "top-heavy"

    def __str__(self) -> str:
        return str(self.value)
