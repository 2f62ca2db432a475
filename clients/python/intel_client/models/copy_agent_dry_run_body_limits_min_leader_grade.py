from enum import StrEnum

class CopyAgentDryRunBodyLimitsMinLeaderGrade(StrEnum):
    AVOID = "avoid"
    MIRROR_WORTHY = "mirror-worthy"
    UNRATED = "unrated"
    WATCH = "watch"

    def __str__(self) -> str:
        return str(self.value)
