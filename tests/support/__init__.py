"""What the tests share, in one place: ``factories`` (games, seats and accounts made as the
services make them), ``pages`` (a page or an answer read as a browser reads it, and the requests a
phone makes), ``deployment`` (a server of the project's started and awaited), ``postgres`` (a
private PostgreSQL cluster on loopback)."""
