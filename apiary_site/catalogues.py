"""The translation catalogues (``locale/<language>/LC_MESSAGES/*.po``) compiled to the ``.mo``
files Django reads, in plain Python: no GNU gettext (``msgfmt``) needed, on any machine.

The ``.mo`` files are committed beside their ``.po``, so the app speaks every language from a
fresh clone, with no step before ``make run``, ``make test`` or a deployment; a test
(``tests/test_i18n.py``) fails when a ``.mo`` does not hold exactly what its ``.po`` says.

    .venv/bin/python -m apiary_site.catalogues          # compile every .po of locale/ into its .mo
    .venv/bin/python -m apiary_site.catalogues --check  # exit 1, naming them, if a .mo is not up to date

``scripts/messages.sh`` collects the strings again (Django's ``makemessages``) and then runs this.
Fuzzy and untranslated entries are left out, as ``msgfmt`` leaves them out; the file layout is
``msgfmt``'s (and Python's ``Tools/i18n/msgfmt.py``'s): sorted keys, no hash table.
"""

from __future__ import annotations

import ast
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
MAGIC = 0x950412DE


@dataclass
class Entry:
    """One message of a ``.po`` file."""

    msgid: str
    msgstr: list[str] = field(default_factory=list)  # one, or one per plural form
    msgctxt: str | None = None
    msgid_plural: str | None = None
    flags: set[str] = field(default_factory=set)
    line: int = 0  # where it starts in its file

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(self.msgstr)

    def key(self) -> bytes:
        """The entry's key in a ``.mo``: ``context EOT msgid [NUL msgid_plural]``."""
        key = self.msgid if self.msgctxt is None else f"{self.msgctxt}\x04{self.msgid}"
        if self.msgid_plural is not None:
            key += f"\x00{self.msgid_plural}"
        return key.encode("utf-8")

    def value(self) -> bytes:
        return "\x00".join(self.msgstr).encode("utf-8")


class CatalogueError(ValueError):
    pass


def read_po(path: Path) -> list[Entry]:
    """Every live entry of a ``.po`` file, the header (``msgid ""``) first (obsolete ``#~``
    entries are left out)."""
    entries: list[Entry] = []
    current: Entry | None = None
    flags: set[str] = set()
    section: str | None = None  # the keyword the next continuation line belongs to
    plural_index = 0

    def finish() -> None:
        nonlocal current
        if current is not None:
            entries.append(current)
        current = None

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#~"):
            continue
        if line.startswith("#,"):
            if current is not None and current.msgstr:
                finish()
            flags |= {flag.strip() for flag in line[2:].split(",") if flag.strip()}
            continue
        if line.startswith("#"):
            continue
        keyword, _space, rest = line.partition(" ")
        if line.startswith('"'):
            keyword, rest = "", line
        text = _unquote(rest, path, number) if rest else ""
        if keyword == "msgctxt" or (keyword == "msgid" and (current is None or current.msgstr)):
            finish()
            current = Entry(msgid="", flags=flags, line=number)
            flags = set()
        if current is None:
            raise CatalogueError(f"{path}:{number}: {keyword or 'a string'} before any msgid")
        if keyword == "msgctxt":
            current.msgctxt, section = text, "msgctxt"
        elif keyword == "msgid":
            current.msgid, section = text, "msgid"
        elif keyword == "msgid_plural":
            current.msgid_plural, section = text, "msgid_plural"
        elif keyword == "msgstr":
            current.msgstr, section = [text], "msgstr"
            plural_index = 0
        elif keyword.startswith("msgstr["):
            plural_index = int(keyword[7:-1])
            current.msgstr += [""] * (plural_index + 1 - len(current.msgstr))
            current.msgstr[plural_index], section = text, "msgstr[]"
        elif keyword == "":
            if section == "msgctxt":
                current.msgctxt = (current.msgctxt or "") + text
            elif section == "msgid":
                current.msgid += text
            elif section == "msgid_plural":
                current.msgid_plural = (current.msgid_plural or "") + text
            elif section == "msgstr":
                current.msgstr[0] += text
            elif section == "msgstr[]":
                current.msgstr[plural_index] += text
            else:
                raise CatalogueError(f"{path}:{number}: a string that belongs to nothing")
        else:
            raise CatalogueError(f"{path}:{number}: unknown keyword {keyword!r}")
    finish()
    return entries


def _unquote(text: str, path: Path, number: int) -> str:
    if not (len(text) >= 2 and text.startswith('"') and text.endswith('"')):
        raise CatalogueError(f"{path}:{number}: expected a quoted string, not {text!r}")
    try:
        return ast.literal_eval(text)
    except (SyntaxError, ValueError) as error:
        raise CatalogueError(f"{path}:{number}: {error}") from None


def compiled_messages(entries: list[Entry]) -> dict[bytes, bytes]:
    """What a ``.mo`` holds for these entries: the translated ones that are not fuzzy, the
    header without its POT-Creation-Date (as ``msgfmt`` writes it, so a catalogue compiled by
    GNU gettext, ``manage.py compilemessages``, reads the same)."""
    messages = {entry.key(): entry.value() for entry in entries if entry.translated and not entry.fuzzy}
    if b"" in messages:
        lines = messages[b""].split(b"\n")
        messages[b""] = b"\n".join(line for line in lines if not line.startswith(b"POT-Creation-Date:"))
    return messages


def mo_bytes(messages: dict[bytes, bytes]) -> bytes:
    """A ``.mo`` file (little-endian, keys sorted, no hash table)."""
    keys = sorted(messages)
    ids = strs = b""
    offsets = []
    for key in keys:
        offsets.append((len(ids), len(key), len(strs), len(messages[key])))
        ids += key + b"\x00"
        strs += messages[key] + b"\x00"
    key_start = 7 * 4 + 16 * len(keys)
    value_start = key_start + len(ids)
    key_table: list[int] = []
    value_table: list[int] = []
    for id_offset, id_length, str_offset, str_length in offsets:
        key_table += [id_length, id_offset + key_start]
        value_table += [str_length, str_offset + value_start]
    header = struct.pack("<7I", MAGIC, 0, len(keys), 7 * 4, 7 * 4 + len(keys) * 8, 0, 0)
    return header + struct.pack(f"<{len(key_table) + len(value_table)}I", *key_table, *value_table) + ids + strs


def read_mo(data: bytes) -> dict[bytes, bytes]:
    """The messages of a ``.mo`` file (either byte order, as ``msgfmt`` or this module wrote it)."""
    for order in ("<", ">"):
        if struct.unpack(f"{order}I", data[:4])[0] == MAGIC:
            break
    else:
        raise CatalogueError("not a .mo file")
    _magic, _revision, count, key_table, value_table = struct.unpack(f"{order}5I", data[:20])
    messages = {}
    for index in range(count):
        key_length, key_offset = struct.unpack(f"{order}2I", data[key_table + 8 * index:key_table + 8 * index + 8])
        value_length, value_offset = struct.unpack(
            f"{order}2I", data[value_table + 8 * index:value_table + 8 * index + 8])
        messages[data[key_offset:key_offset + key_length]] = data[value_offset:value_offset + value_length]
    return messages


def catalogues(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Every ``.po`` file under ``locale_dir``."""
    return sorted(locale_dir.glob("*/LC_MESSAGES/*.po"))


def compile_all(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Write the ``.mo`` of every ``.po``; returns the ``.mo`` files written."""
    written = []
    for po in catalogues(locale_dir):
        mo = po.with_suffix(".mo")
        mo.write_bytes(mo_bytes(compiled_messages(read_po(po))))
        written.append(mo)
    return written


def stale(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """The ``.po`` files whose ``.mo`` is missing or does not hold exactly what they say."""
    out_of_date = []
    for po in catalogues(locale_dir):
        mo = po.with_suffix(".mo")
        if not mo.exists() or read_mo(mo.read_bytes()) != compiled_messages(read_po(po)):
            out_of_date.append(po)
    return out_of_date


def main(argv: list[str]) -> int:
    if argv == ["--check"]:
        out_of_date = stale()
        for po in out_of_date:
            print(f"{po}: its .mo is not up to date (run: .venv/bin/python -m apiary_site.catalogues)",
                  file=sys.stderr)
        return 1 if out_of_date else 0
    if argv:
        print("usage: python -m apiary_site.catalogues [--check]", file=sys.stderr)
        return 2
    for mo in compile_all():
        print(f"compiled {mo.relative_to(LOCALE_DIR.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
