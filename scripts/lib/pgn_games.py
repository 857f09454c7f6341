"""Reading the games of a match runner's PGN (fastchess, cutechess), for the scripts here.

games(text) yields (tags, movetext) for each game of a PGN file's text. latest(games) keeps one
game of each round and pairing: a match resumed from fastchess's saved state plays again the
games finished after its last save, so a [Round] can hold the same White and Black twice; the
later game is the one fastchess counts, and the one kept.
"""
import lzma
import re

TAG = re.compile(r'^\[(\w+) "([^"]*)"\]', re.M)


def games(text):
    """(tags, movetext) for each game, in the order of the file."""
    for chunk in text.split("[Event ")[1:]:
        tags = dict(TAG.findall(chunk))
        movetext = chunk.split("\n\n", 1)[1] if "\n\n" in chunk else ""
        yield tags, movetext


def latest(found):
    """The games of `found` less any that a later game of the same round and pairing replaced."""
    kept = {}
    for tags, movetext in found:
        key = (tags.get("Round", "?"), tags.get("White"), tags.get("Black"))
        kept.pop(key, None)  # re-inserted last: the file's order, with the later game's place
        kept[key] = (tags, movetext)
    return list(kept.values())


def read(path):
    """The text of a PGN file (bytes that are not UTF-8 replaced); a name ending in .xz is read
    through xz, as the games kept in tuning/games are."""
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as f:
        return f.read()
