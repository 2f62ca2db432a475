from enum import StrEnum

class DeliveryResult(StrEnum):
    DELIVERED = "delivered"
    DISABLED = "disabled"
    FAILED = "failed"
    RETRYING = "retrying"

    def __str__(self) -> str:
        return str(self.value)
