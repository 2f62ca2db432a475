from enum import StrEnum

class WalletHealthResponseFlagsItemSeverity(StrEnum):
    INFO = "info"
    RED = "red"
    WARN = "warn"

    def __str__(self) -> str:
        return str(self.value)
