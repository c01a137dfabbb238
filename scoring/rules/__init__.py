"""The game's rules in plain Python, no Django: the categories and how each scores (``categories``),
the engine that scores a game (``engine``), the sums a field takes (``sums``), names compared
(``names``) and the next game of a table (``play_again``)."""
