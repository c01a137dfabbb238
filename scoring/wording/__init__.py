"""The catalogue's words: every sentence the pages, the pad's script and the messages show is a
whole sentence of the catalogue (locale/), never one glued from translated pieces.

- ``sentences``: a sentence with its values put in (``words``), each name in its own ``<bdi>``
  (``isolated``), lists of names, and a sentence as plain text;
- ``numbers_and_dates``: numbers, ordinals, dates and times as the language writes them;
- ``explanations``: the rules' outcome in words: a comb sector's places, a tie and how it was
  broken, a value far from what games record.

Below the services and the presenters: both say what they say with these.
"""
