from enum import StrEnum

class VenueStyle(StrEnum):
    POSITION = "position"
    SCALPER = "scalper"
    SWING = "swing"

    def __str__(self) -> str:
        return str(self.value)
