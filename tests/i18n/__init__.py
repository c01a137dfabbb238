"""Specification of the pad in two languages: English, and French in the French edition's words.

- ``test_pages_in_french``: every page a player meets, rendered in French, shows French text and
  not one English word; numbers, dates and ordinals follow the language.
- ``test_choosing_the_language``: the browser's language first, a one-tap switch on every page,
  the choice remembered per device and per account.
- ``test_command_line``: the command-line tools speak the shell's language.
- ``test_catalogue``: the French catalogue is whole, compiled and written in French typography.
- ``test_marked_for_translation``: nothing user-facing escapes translation.
- ``test_as_the_editions_write``: the rules a program can hold (issue 28), and the words and
  figures the pages show in both languages.

``helpers`` holds what they share (reading a page for English words, GNU gettext, the files whose
words people read); ``conftest`` their fixtures.
"""
