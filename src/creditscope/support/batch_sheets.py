"""Workbooks as customers send them (.xlsx, .xlsm, .xls, .ods), and every other binary file
told apart from a text table before any talk of encodings.

What a file is comes from its first bytes, not its name: an ``.xlsx`` renamed
``.csv`` is still read as a workbook, and a PDF named ``list.csv`` is "not a text
table", not "UTF-16 without a BOM". A workbook is read with calamine, which
reads values only: a formula's last computed value, never the formula, no macro,
no external link. One sheet is read (the first visible one, or ``--sheet``), each
row as its cells in text, numbered as the spreadsheet numbers its rows.

A workbook is a ZIP archive (.xls: a compound file); its declared unpacked size is
checked first, so a small file that unpacks to gigabytes is refused unread.
"""

from __future__ import annotations

import datetime
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree

from creditscope.file_reading import FileRefused, open_regular_file
from creditscope.support.batch_sheet_xml import SheetXml, UncalculatedFormula, read_sheet_xml

_ZIP = b"PK\x03\x04"
_COMPOUND = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # .xls, and an encrypted .xlsx
_UNPACKED_LIMIT = 512 * 2**20  # bytes a workbook may unpack to
# Binary formats people attach by mistake, by their first bytes.
_BINARY_KINDS = (
    (b"%PDF", "a PDF document"), (b"\x89PNG", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"), (b"\x1f\x8b", "a gzip archive"), (b"7z\xbc\xaf", "a 7-Zip archive"),
    (b"Rar!", "a RAR archive"), (b"SQLite format 3", "an SQLite database"),
    (b"bplist", "a property list"), (b"\x7fELF", "a program"), (b"MZ", "a Windows program"),
)
_WORKBOOK_NAMES = {"xlsx": "Excel workbook", "ods": "OpenDocument spreadsheet",
                   "xls": "Excel 97-2003 workbook"}


class NotATextTable(FileRefused):
    """The file is binary and no workbook; the message names what it seems to be."""


def workbook_kind(path: Path) -> str | None:
    """``xlsx``, ``ods`` or ``xls`` for a workbook, None for anything that may be text;
    ``NotATextTable`` for another binary file (a PDF, a .docx, an image)."""
    with open_regular_file(path) as handle:
        head = handle.read(16)
    if head.startswith(_ZIP):
        return _zip_kind(path)
    if head.startswith(_COMPOUND):
        return "xls"
    kind = next((name for magic, name in _BINARY_KINDS if head.startswith(magic)), None)
    if kind is not None:
        raise NotATextTable(not_a_text_table(path, kind))
    return None


def not_a_text_table(path: Path, kind: str = "binary data") -> str:
    return (f"{path} is not a text table (it looks like {kind}); save the list as CSV "
            "(\"CSV UTF-8\" in Excel) or as an .xlsx workbook (nothing was sent)")


def markup_kind(first_line: str) -> str | None:
    """What a text file whose first line is markup is: Excel opens both an HTML table and
    an Excel 2003 XML workbook saved as ``.xls``, but neither is a CSV."""
    head = first_line.lstrip("\ufeff \t").casefold()
    if head.startswith(("<html", "<!doctype html", "<table", "<meta")):
        return "an HTML page"
    if head.startswith("<?xml") or head.startswith("<workbook"):
        return "an XML file (Excel 2003 \"XML Spreadsheet\")"
    return None


def _zip_kind(path: Path) -> str:
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
            unpacked = sum(info.file_size for info in archive.infolist())
            mimetype = archive.read("mimetype")[:80] if "mimetype" in names else b""
    except (zipfile.BadZipFile, OSError, KeyError):
        raise NotATextTable(not_a_text_table(path, "a damaged ZIP archive")) from None
    if "xl/workbook.xml" in names or "xl/workbook.bin" in names:
        kind = "xlsx"
    elif b"opendocument.spreadsheet" in mimetype:
        kind = "ods"
    else:
        what = ("a Word document" if "word/document.xml" in names else
                "a PowerPoint file" if "ppt/presentation.xml" in names else
                "an OpenDocument text" if b"opendocument" in mimetype else "a ZIP archive")
        raise NotATextTable(not_a_text_table(path, what))
    if unpacked > _UNPACKED_LIMIT:
        raise FileRefused(f"{path} unpacks to {unpacked // 2**20} MB, over the "
                          f"{_UNPACKED_LIMIT // 2**20} MB a batch reads; save the list as CSV")
    return kind


@dataclass(frozen=True)
class Sheet:
    """One sheet of a workbook, read a row at a time."""

    path: Path
    kind: str  # xlsx, ods or xls
    name: str
    index: int
    names: tuple[str, ...]  # every sheet of the workbook, in order
    # formulas saved without values (HYPERLINK's text), hidden rows: an .xlsx's XML
    xml: SheetXml = field(default_factory=SheetXml, compare=False)

    def hidden(self, row: int) -> bool:
        """Whether the spreadsheet hides this row (a filter the customer set)."""
        return row in self.xml.hidden_rows

    @property
    def description(self) -> str:
        """``Excel workbook, sheet 'Prospects' (1 of 3)``."""
        return (f"{_WORKBOOK_NAMES[self.kind]}, sheet {self.name!r} "
                f"({self.index + 1} of {len(self.names)})")

    def rows(self) -> Iterator[tuple[int, list[str]]]:
        """``(row number as the spreadsheet shows it, cells as text)``, blank rows included."""
        from python_calamine import CalamineError, CalamineWorkbook

        with open_regular_file(self.path) as handle:
            try:
                sheet = CalamineWorkbook.from_filelike(handle).get_sheet_by_index(self.index)
            except (CalamineError, ValueError) as exc:
                raise FileRefused(f"{self.path}: sheet {self.name!r} cannot be read ({exc}); "
                                  "save it again, or as CSV (nothing was sent)") from None
            first, left = sheet.start if sheet.start else (0, 0)
            for offset, cells in enumerate(sheet.iter_rows()):
                row = first + offset + 1
                texts = [cell_text(cell) for cell in cells]
                for column, text in enumerate(texts, start=left + 1):
                    if not text and (row, column) in self.xml.uncalculated:
                        texts[column - left - 1] = self.xml.uncalculated[row, column]
                yield row, texts


def open_sheet(path: Path, kind: str, wanted: str | None) -> Sheet:
    """The sheet to read: ``wanted`` by name (any case), else the first visible one.
    ``FileRefused`` names the sheets when ``wanted`` is not one, or says why the
    workbook cannot be read (a password, a damaged file)."""
    from python_calamine import CalamineError, CalamineWorkbook, PasswordError, SheetVisibleEnum

    try:
        with open_regular_file(path) as handle:
            workbook = CalamineWorkbook.from_filelike(handle)
            names = list(workbook.sheet_names)
            shown = [meta.visible == SheetVisibleEnum.Visible
                     for meta in workbook.sheets_metadata]
    except PasswordError:
        raise FileRefused(f"{path} is protected by a password; save a copy without one "
                          "(nothing was sent)") from None
    except (CalamineError, ValueError) as exc:
        raise FileRefused(f"{path} cannot be read as an {_WORKBOOK_NAMES[kind]} ({exc}); "
                          "save it again, or as CSV (nothing was sent)") from None
    if not names:
        raise FileRefused(f"{path} has no sheet")
    if wanted is None:
        index = next((number for number, visible in enumerate(shown) if visible), 0)
    else:
        folded = [name.casefold() for name in names]
        if wanted.casefold() not in folded:
            raise FileRefused(f"{path} has no sheet {wanted!r} (its sheets: "
                              f"{', '.join(repr(name) for name in names)})")
        index = folded.index(wanted.casefold())
    return Sheet(path, kind, names[index], index, tuple(names),
                 _sheet_xml(path, kind, index))


def _sheet_xml(path: Path, kind: str, index: int) -> SheetXml:
    """An .xlsx sheet's formulas saved without a value (a script's workbook) and hidden
    rows; ``FileRefused`` for a formula whose value is unknown."""
    if kind != "xlsx":
        return SheetXml()  # .ods and .xls keep a value with every formula
    try:
        return read_sheet_xml(str(path), index)
    except UncalculatedFormula as exc:
        raise FileRefused(f"{path}: {exc}") from None
    except (KeyError, ValueError, zipfile.BadZipFile, ElementTree.ParseError):
        return SheetXml()  # an .xlsb or an odd layout: calamine's values are all there is


def cell_text(value: object) -> str:
    """A cell as the text a person sees: ``8`` not ``8.0``, dates as ISO dates."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime.datetime) and value.time() == datetime.time():
        return value.date().isoformat()
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    return str(value)
