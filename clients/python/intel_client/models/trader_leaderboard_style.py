from enum import StrEnum

class TraderLeaderboardStyle(StrEnum):
    BOT = "bot"
    HOLDER = "holder"
    SCALPER = "scalper"
    SNIPER = "sniper"
    SWING = "swing"

    def __str__(self) -> str:
        return str(self.value)
