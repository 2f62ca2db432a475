from enum import StrEnum

class HoldBand(StrEnum):
    DAYS = "days"
    HOURS = "hours"
    MINUTES = "minutes"
    SECONDS = "seconds"
    WEEKS = "weeks"

    def __str__(self) -> str:
        return str(self.value)
