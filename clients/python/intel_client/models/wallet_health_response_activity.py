from enum import StrEnum

class WalletHealthResponseActivity(StrEnum):
    ACTIVE = "active"
    DORMANT = "dormant"
    QUIET = "quiet"

    def __str__(self) -> str:
        return str(self.value)
