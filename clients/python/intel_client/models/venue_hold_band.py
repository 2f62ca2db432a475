from enum import StrEnum

class VenueHoldBand(StrEnum):
    DAYS = "days"
    HOURS = "hours"
    MINUTES = "minutes"
    SECONDS = "seconds"
    WEEKS = "weeks"

    def __str__(self) -> str:
        return str(self.value)
