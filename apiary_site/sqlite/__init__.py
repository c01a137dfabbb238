"""SQLite with writers that queue in a file lock (see base.py)."""
