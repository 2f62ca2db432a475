from enum import StrEnum

class VenueWalletResponseBehaviourEntryPriceBandType2Type1(StrEnum):
    BALANCED = "balanced"
    FAVOURITE = "favourite"
    LONGSHOT = "longshot"

    def __str__(self) -> str:
        return str(self.value)
