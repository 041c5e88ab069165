"""A batch file's text encoding, settled before a single row is read or sent.

Spreadsheets save UTF-8 with or without a byte-order mark, Excel's "Unicode
text" is UTF-16 with a BOM, and an old export is often Windows-1252. The whole
file is decoded once, as a stream (constant memory), before anything else
happens: a byte that does not decode stops the batch there with its exact line
and byte and a likely encoding to re-run with (``--encoding``), instead of the
CSV reader giving up halfway through a run that was already paid for.
"""

from __future__ import annotations

import codecs
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from creditscope.file_reading import open_regular_file
from creditscope.support.batch_sheets import NotATextTable, not_a_text_table
from creditscope.support.encoding_evidence import PLAUSIBLE, ranked

_CHUNK = 1 << 16
_BOMS = (  # longest first: a UTF-32 BOM begins like UTF-16's
    (codecs.BOM_UTF8, "utf-8", "UTF-8 with a BOM"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16 (little-endian, with a BOM)"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16 (big-endian, with a BOM)"),
)
_SAMPLE_LIMIT = 1 << 16  # bytes of non-ASCII lines handed to the guess


class EncodingProblem(ValueError):
    """The file does not decode; the message names the line, the byte and what to do."""


@dataclass(frozen=True)
class TextEncoding:
    """How to read a file: its codec after the BOM, the BOM itself, and a label."""

    codec: str  # a Python codec for the bytes after ``bom``: "utf-8", "utf-16-le", "cp1252"
    bom: bytes = b""
    label: str = "UTF-8"

    @property
    def from_excel(self) -> bool:
        """A BOM, UTF-16 or an 8-bit code page (cp1252, Mac Roman): what Excel writes, and
        so it gets a UTF-8 BOM back (without one Excel reads UTF-8 as its code page)."""
        return bool(self.bom) or _family(self.codec) != "utf-8"

    def open(self, path: Path) -> TextIO:
        """The file as text after its BOM (strict: ``detect_encoding`` checked it all)."""
        raw = open_regular_file(path)
        raw.seek(len(self.bom))
        # newline="": the csv module handles \r\n and quoted line breaks itself.
        return io.TextIOWrapper(raw, encoding=self.codec, newline="")


def detect_encoding(path: Path, forced: str | None = None) -> TextEncoding:
    """The file's encoding: its BOM, else UTF-8, else ``forced`` (``--encoding``).

    Raises ``EncodingProblem`` when the file does not decode, and ``LookupError``
    for a ``forced`` name Python does not know.
    """
    with open_regular_file(path) as handle:
        head = handle.read(4)
    sniffed = next((TextEncoding(codec, bom, label) for bom, codec, label in _BOMS
                    if head.startswith(bom)), None)
    encoding = sniffed or TextEncoding("utf-8")
    if forced is not None:
        codec = codecs.lookup(forced)
        if not getattr(codec, "_is_text_encoding", True):
            # base64, hex, rot13, zlib: codecs Python knows that turn bytes into bytes.
            raise LookupError(f"{forced} is not a text encoding")
        name = codec.name
        # --encoding utf-8 / utf-16 on a file with its BOM: the BOM says the rest.
        if sniffed is None or _family(name) != _family(sniffed.codec):
            encoding = TextEncoding(name, b"", f"{forced} (--encoding)")
    _check_decodes(path, encoding, forced is not None)
    if forced is not None and _family(encoding.codec) not in ("utf-8", "utf-16"):
        _refuse_utf8_read_as(path, encoding.codec, sniffed is not None)
    return encoding


def _refuse_utf8_read_as(path: Path, codec: str, has_bom: bool) -> None:
    """``--encoding cp1252`` on a UTF-8 file reads "NestlÃ© S.A."; text that is valid
    UTF-8 with non-ASCII in it is UTF-8 (an 8-bit export almost never is), so refuse."""
    sample = _non_ascii_sample(path)
    try:
        _check_decodes(path, TextEncoding("utf-8"), True)
        reads = sample.decode("utf-8").splitlines()[0].lstrip("\ufeff").strip()
    except (EncodingProblem, UnicodeDecodeError, IndexError):
        return
    wrong = sample.decode(codec, errors="replace").splitlines()[0].strip()
    bom = " (it starts with a UTF-8 byte-order mark)" if has_bom else ""
    raise EncodingProblem(
        f"{path} is UTF-8{bom}: read as {codec} it says \"{wrong[:60]}\" instead of "
        f"\"{reads[:60]}\"; drop --encoding {codec} (nothing was sent)")


def _family(codec: str) -> str:
    """``utf-8`` for utf-8 and utf-8-sig, ``utf-16`` for any UTF-16; else the codec."""
    for family in ("utf-8", "utf-16"):
        if codec.replace("_", "-").startswith(family):
            return family
    return codec


def _check_decodes(path: Path, encoding: TextEncoding, forced: bool) -> None:
    """Decode the whole file once; the first bad byte (or NUL) raises ``EncodingProblem``."""
    decoder = codecs.getincrementaldecoder(encoding.codec)()
    offset = len(encoding.bom)  # file offset of the next byte fed to the decoder
    line, line_start = 1, 0  # the current line and the file offset it starts at
    wide = encoding.codec.startswith("utf-16")
    with open_regular_file(path) as handle:
        handle.seek(offset)
        while True:
            chunk = handle.read(_CHUNK)
            nul = -1 if wide else chunk.find(b"\0")
            if nul >= 0:  # no text table holds one: UTF-16 without a BOM, or binary data
                line, _ = _line_at(path, encoding, offset + nul, line, line_start)
                raise _nul_byte(path, line)
            held = len(decoder.getstate()[0])  # bytes of a character cut by the last chunk
            try:
                text = decoder.decode(chunk, final=not chunk)
            except UnicodeDecodeError as exc:
                bad = offset - held + exc.start
                line, line_start = _line_at(path, encoding, bad, line, line_start)
                raise EncodingProblem(_not_decoded(path, encoding, forced, line,
                                                   bad - line_start + 1, bad)) from None
            line, line_start = _advance(encoding, text, offset - held, line, line_start)
            offset += len(chunk)
            if not chunk:
                return


def _nul_byte(path: Path, line: int) -> ValueError:
    """A NUL byte: UTF-16 saved without a BOM when the whole file reads so (checked), else
    not a text table at all."""
    with open_regular_file(path) as handle:
        head = handle.read(_CHUNK)
    if head.count(b"\0") * 20 < len(head):  # UTF-16 of a table: a NUL in most cells
        if _reads_as_text(path, "utf-8", nul_allowed=True):
            return EncodingProblem(
                f"{path}: line {line}: a NUL byte (a broken export or a copy error) in "
                "otherwise UTF-8 text; remove it, or export the list again (nothing was sent)")
        return NotATextTable(not_a_text_table(path))
    wide = checked_guess(path, [codec for codec in ("utf-16-le", "utf-16-be")
                                if _reads_as_text(path, codec)])
    if wide is None:
        return NotATextTable(not_a_text_table(path))
    return EncodingProblem(
        f"{path}: line {line}: a NUL byte: this looks like UTF-16 saved without "
        f"a byte-order mark; re-run with --encoding {wide} (nothing was sent)")


def _reads_as_text(path: Path, codec: str, nul_allowed: bool = False) -> bool:
    """Whether the file's start, read as ``codec``, is printable text (a table's cells)."""
    with open_regular_file(path) as handle:
        head = handle.read(_CHUNK)
    if nul_allowed:
        head = head.replace(b"\0", b"")
    text = head[: len(head) // 2 * 2].decode(codec, errors="replace")
    printable = sum(char.isprintable() or char in "\t\r\n" for char in text)
    return printable >= 0.95 * max(len(text), 1) and "\ufffd" not in text


def _advance(encoding: TextEncoding, text: str, start: int, line: int,
             line_start: int) -> tuple[int, int]:
    """``(line, file offset of that line)`` after ``text``, decoded from offset ``start``.
    A line ends with CR LF, LF, or CR alone (Excel for Mac), as the CSV reader counts."""
    last = max(text.rfind("\n"), text.rfind("\r"))
    if last < 0:
        return line, line_start
    before = text[: last + 1]
    ends = before.count("\n") + before.count("\r") - before.count("\r\n")
    return line + ends, start + len(before.encode(encoding.codec))


def _line_at(path: Path, encoding: TextEncoding, bad: int, line: int,
             line_start: int) -> tuple[int, int]:
    """The line holding file offset ``bad``, counting on from ``line`` at ``line_start``."""
    with open_regular_file(path) as handle:
        handle.seek(line_start)
        valid = handle.read(bad - line_start)
    text = valid.decode(encoding.codec, errors="replace")
    return _advance(encoding, text, line_start, line, line_start)


def _not_decoded(path: Path, encoding: TextEncoding, forced: bool, line: int, byte: int,
                 offset: int) -> str:
    where = f"{path}: line {line}, byte {byte} (offset {offset} in the file)"
    name = encoding.codec.upper() if not forced else encoding.codec
    if forced:
        return f"{where}: not {name} text; check --encoding (nothing was sent)"
    guess = checked_guess(path, likely_encodings(_non_ascii_sample(path)))
    if guess is None:
        hint = ("re-save it as UTF-8 (\"CSV UTF-8\" in Excel), or name its encoding with "
                "--encoding (cp1252 for most Windows exports)")
        return f"{where}: not {name} text; {hint} (nothing was sent)"
    reads = _line_bytes(path, offset - byte + 1)
    return (f"{where}: not {name} (looks like {_described(guess)}: that line reads "
            f"\"{reads.decode(guess).strip()}\"); re-run with --encoding {guess}, or re-save "
            "it as UTF-8 (nothing was sent)")


def _line_bytes(path: Path, start: int) -> bytes:
    """The line that starts at file offset ``start``, up to its end or 80 bytes."""
    with open_regular_file(path) as handle:
        handle.seek(start)
        head = handle.read(80)
    return re.split(rb"[\r\n]", head, maxsplit=1)[0]


def _described(codec: str) -> str:
    return {"cp1252": "cp1252/Latin-1, Windows Western European",
            "cp1250": "cp1250, Windows Central European",
            "cp1251": "cp1251, Windows Cyrillic",
            "cp1253": "cp1253, Windows Greek",
            "cp932": "cp932/Shift_JIS, Japanese Windows",
            "gb18030": "GB18030, Simplified Chinese",
            "big5": "Big5, Traditional Chinese",
            "euc-kr": "EUC-KR, Korean",
            "cp850": "cp850, DOS Western European",
            "mac_roman": "Mac Roman, as Excel for Mac saves CSV"}.get(codec, codec)


def _non_ascii_sample(path: Path) -> bytes:
    """The file's lines holding a non-ASCII byte, up to a limit: what the guess needs.
    Lines end at CR too: Excel for Mac ends them with CR alone."""
    sample = bytearray()
    with open_regular_file(path) as handle:
        for raw in handle:
            for part in raw.split(b"\r"):
                if not part.isascii():
                    sample += part + b"\n"
            if len(sample) >= _SAMPLE_LIMIT:
                break
    return bytes(sample)


def likely_encodings(sample: bytes) -> list[str]:
    """The common encodings that read ``sample`` as plausible text, likeliest first
    (``encoding_evidence``: by the words each makes of it); none for no sample."""
    if not sample:
        return []
    return [codec for score, codec in ranked(sample) if score < PLAUSIBLE]


def likely_encoding(sample: bytes) -> str | None:
    """The likeliest common encoding of ``sample``, or None."""
    return next(iter(likely_encodings(sample)), None)


def checked_guess(path: Path, guesses: list[str]) -> str | None:
    """The first of ``guesses`` that decodes the whole file: advice that is followed
    must work, so a guess is never offered on its sample alone."""
    for codec in guesses:
        try:
            _check_decodes(path, TextEncoding(codec), True)
        except EncodingProblem:
            continue
        return codec
    return None
