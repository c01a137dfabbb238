"""The benchmark's settings: production's (``apiary_site.settings``, from the same environment),
but for one thing: the per-phone and per-account rate limits (kinds ``session`` and ``user``) are
lifted out of its way. The closed loop's phones save as fast as the server answers (saturation:
far faster than anyone types), each table's phones one account's; each of their saves is still
counted per phone and per account, against limits no save reaches, and per address as in
production, in the one statement production runs: the club nights' phones all from one address
(a club's router), the closed loop's each from its own loopback addresses (bench/pad_client.py)."""

from apiary_site.settings import *  # noqa: F403 (production's settings, every one)
from apiary_site.settings import RATE_LIMITS as PRODUCTION_RATE_LIMITS

UNREACHED = 10**9
LIFTED = ("session", "user")
RATE_LIMITS = {
    rule: {
        kind: (UNREACHED, period) if kind in LIFTED else (allowed, period) for kind, (allowed, period) in kinds.items()
    }
    for rule, kinds in PRODUCTION_RATE_LIMITS.items()
}
