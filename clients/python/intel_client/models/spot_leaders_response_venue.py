from enum import StrEnum

class SpotLeadersResponseVenue(StrEnum):
    SPOT = "spot"

    def __str__(self) -> str:
        return str(self.value)
