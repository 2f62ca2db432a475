from enum import StrEnum

class VenueWalletResponseBehaviourEntryPriceBandType1(StrEnum):
    BALANCED = "balanced"
    FAVOURITE = "favourite"
    LONGSHOT = "longshot"

    def __str__(self) -> str:
        return str(self.value)
