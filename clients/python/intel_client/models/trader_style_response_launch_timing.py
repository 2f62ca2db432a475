from enum import StrEnum

class TraderStyleResponseLaunchTiming(StrEnum):
    HABITUAL = "habitual"
    NONE = "none"
    SOME = "some"

    def __str__(self) -> str:
        return str(self.value)
