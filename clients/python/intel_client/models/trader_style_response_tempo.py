from enum import StrEnum

class TraderStyleResponseTempo(StrEnum):
    ACTIVE = "active"
    FRANTIC = "frantic"
    OCCASIONAL = "occasional"

    def __str__(self) -> str:
        return str(self.value)
