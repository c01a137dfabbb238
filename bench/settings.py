"""The benchmark's settings: production's (``apiary_site.settings``, from the same environment),
but for one thing: the per-session rate limits are lifted out of its way. Its phones save as fast
as the server answers (saturation: far faster than anyone types), and each table's phones are
one account's; each of their saves is still counted per session, against a limit no save
reaches, and per address (each phone from its own loopback addresses: bench/pad_client.py), in
the one statement production runs."""

from apiary_site.settings import *  # noqa: F403 (production's settings, every one)
from apiary_site.settings import RATE_LIMITS as PRODUCTION_RATE_LIMITS

UNREACHED = 10**9
RATE_LIMITS = {
    rule: {
        kind: (UNREACHED, period) if kind == "session" else (allowed, period)
        for kind, (allowed, period) in kinds.items()
    }
    for rule, kinds in PRODUCTION_RATE_LIMITS.items()
}
