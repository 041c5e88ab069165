"""Which 8-bit encoding a file is in, by the words each candidate makes of its bytes.

Windows-1252, Windows-1250 and Mac Roman decode almost any bytes without error,
so "it decodes" says nothing; what tells them apart is the text that comes out.
Read as cp1252, an Excel 2011 for Mac export says ``NestlŽ S.A.`` and ``LÕOrŽal``;
as Mac Roman, ``Nestlé S.A.`` and ``L’Oréal``. Each candidate's text is scored by
what no real name holds: a capital letter right after a small one (``NestlŽ``), a
symbol, superscript, dash or quote inside a word (``£ódŸ``, ``M¸ller``,
``Telef—nica``), a control character,
two scripts in one word (``Cafй``), a word
of accented letters only (``Đîěŕřęŕ``) or of letters no one language has together
(``Pøíbram``), plus charset-normalizer's own measure of mess.
The least odd candidate wins; on a tie the commoner encoding (cp1252 first).
"""

from __future__ import annotations

import re
import unicodedata

# Encodings spreadsheets and old exports really use, commonest first (the tie-break):
# Western, Central European, Cyrillic, Greek, DOS, then Japanese, Chinese and Korean
# Windows exports (their multi-byte text rarely decodes as anything else).
CANDIDATES = ("cp1252", "mac_roman", "cp1250", "cp1251", "cp1253", "cp850", "cp932",
              "gb18030", "big5", "euc-kr")
_WORD_BREAKS = re.compile(r"[\s,;|\"'/().]+")
# The accented letters of the languages whose names these code pages carry.
_ALPHABETS = tuple(frozenset(letters) for letters in (
    "äöüß", "àâæçéèêëîïôœùûüÿ", "áéíñóúü", "àáâãçéêíóôõú", "àèéìíîòóùú", "áéëèêïíóöôüú",
    "åäöéü", "æøåéó", "áéíóúýæöðþ", "ąćęłńóśźż", "áčďéěíňóřšťúůýž", "áäčďéíĺľňóôŕšťúýž",
    "áéíóöőúüű", "čćđšž", "ăâîșțşţ", "âçğıîöşü", "ãéíóõúâêô",
))
_NAME_MARKS = frozenset("™®©°·")  # symbols real names carry beside a letter (Col·legi)
PLAUSIBLE = 0.5  # oddities per non-ASCII character above which no candidate is offered


def oddness(text: str) -> float:
    """Oddities per non-ASCII character of ``text`` (0: reads like real names)."""
    from charset_normalizer.md import mess_ratio  # imported only on this error path

    odd = 0
    unusual = sum(not char.isascii() for char in text)
    for word in _WORD_BREAKS.split(text):
        odd += _word_oddities(word)
    return odd / max(unusual, 1) + mess_ratio(text, 1.0)


def _word_oddities(word: str) -> int:
    odd = 0
    scripts = {_script(char) for char in word if char.isalpha()} - {"LATIN-ASCII"}
    if len(scripts - {"LATIN"}) >= 1 and any(char.isascii() and char.isalpha() for char in word):
        odd += 3  # Cyrillic or Greek letters inside a Latin word
    if not _one_language(word):
        odd += 1
    accented = sum(not char.isascii() and _script(char) == "LATIN" for char in word)
    plain = sum(char.isascii() and char.isalpha() for char in word)
    odd += max(0, accented - max(2, plain))  # ÎÎÎ Đîěŕřęŕ: Cyrillic read as Latin
    for index, char in enumerate(word):
        if char.isascii():
            continue
        category = unicodedata.category(char)
        before = word[index - 1] if index else ""
        after = word[index + 1] if index + 1 < len(word) else ""
        if category[0] == "C":
            odd += 3  # a control or unassigned character
        elif category == "Lu" and before.isalpha() and before.islower():
            odd += 2  # NestlŽ
        elif category == "Lu" and before.isupper() and after.islower():
            odd += 1  # MÅller
        elif category in ("Pd", "Pi", "Pf"):
            if char != "’" and before.isalpha() and after.isalpha():
                odd += 2  # Telef—nica, Citro‘n: a dash or a quote inside a word
        elif category[0] != "L" and char not in _NAME_MARKS and (
                before.isalpha() or after.isalpha()):
            odd += 2  # £ódŸ, M¸ller, Stra§e, 3³: a symbol against a letter
    return odd


def _one_language(word: str) -> bool:
    """Whether the word's accented Latin letters all belong to one language's alphabet
    (``Pøíbram`` mixes Danish and Czech: it is ``Příbram`` read as cp1252)."""
    accented = {char for char in word.casefold() if not char.isascii() and char.isalpha()
                and _script(char) == "LATIN"}
    return not accented or any(accented <= alphabet for alphabet in _ALPHABETS)


def _script(char: str) -> str:
    if char.isascii():
        return "LATIN-ASCII"
    name = unicodedata.name(char, "")
    return name.split(" ")[0] if name else "UNKNOWN"


def ranked(sample: bytes) -> list[tuple[float, str]]:
    """``(oddness, codec)`` of every candidate that decodes ``sample``, least odd first."""
    scored: list[tuple[float, int, str]] = []
    for order, codec in enumerate(CANDIDATES):
        try:
            text = sample.decode(codec)
        except UnicodeDecodeError:
            continue
        scored.append((round(oddness(text), 3), order, codec))
    return [(score, codec) for score, _, codec in sorted(scored)]
