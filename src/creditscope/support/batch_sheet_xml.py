"""What an .xlsx sheet's XML says and calamine does not: formulas saved without their
values, and rows hidden by a filter.

Excel and LibreOffice save each formula with the value it computed, and calamine reads
that value. A workbook written by a program (openpyxl, a CRM's export) often holds the
formula alone: calamine then reads an empty cell, and a ``=HYPERLINK(...)`` name or
website would vanish from the request without a word. The sheet's XML is read once
(streamed) for such cells: a ``HYPERLINK`` of plain text reads as the text Excel would
show; any other formula refuses the workbook, since its value is unknown. The same pass
notes rows hidden in the sheet (a filter the customer set): calamine reads them as any
other row.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from dataclasses import dataclass, field
from xml.etree import ElementTree

_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_RELS = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"
_TEXT = r'"((?:[^"]|"")*)"'
_HYPERLINK = re.compile(r"\s*HYPERLINK\(\s*" + _TEXT + r"\s*(?:[,;]\s*" + _TEXT + r"\s*)?\)\s*",
                        re.IGNORECASE)
_CELL_REF = re.compile(r"([A-Z]+)(\d+)")


class UncalculatedFormula(ValueError):
    """A formula whose value was never computed; the message says what to do."""


@dataclass(frozen=True)
class SheetXml:
    """``uncalculated``: ``(row, column) -> text`` (from 1) of formula cells saved without
    a value, each a HYPERLINK's shown text; ``hidden_rows``: the rows hidden in the sheet."""

    uncalculated: dict[tuple[int, int], str] = field(default_factory=dict)
    hidden_rows: frozenset[int] = frozenset()


def read_sheet_xml(path: str, index: int) -> SheetXml:
    """What the ``index``-th sheet's XML says beyond its values; ``UncalculatedFormula``
    for a formula without a value that is no plain HYPERLINK."""
    with zipfile.ZipFile(path) as archive:
        member = _sheet_member(archive, index)
        if member is None:
            return SheetXml()
        found: dict[tuple[int, int], str] = {}
        hidden: set[int] = set()
        with archive.open(member) as sheet:
            for _, element in ElementTree.iterparse(sheet):
                if element.tag == f"{_MAIN}row":
                    if element.get("hidden") in ("1", "true"):
                        hidden.add(int(element.get("r", "0")))
                    element.clear()  # constant memory, whatever the sheet's size
                    continue
                if element.tag != f"{_MAIN}c":
                    continue
                formula = element.find(f"{_MAIN}f")
                value = element.find(f"{_MAIN}v")
                if formula is not None and formula.text and (value is None or not value.text):
                    reference = element.get("r", "")
                    found[_position(reference)] = _shown_text(reference, formula.text)
    return SheetXml(found, frozenset(hidden))


def _shown_text(reference: str, formula: str) -> str:
    link = _HYPERLINK.fullmatch(formula)
    if link is None:
        raise UncalculatedFormula(
            f"this workbook's formulas were never calculated (cell {reference} holds "
            f"={formula[:60]} and no value): open and save it in Excel or LibreOffice, or "
            "export CSV (nothing was sent)")
    url, text = link.group(1), link.group(2)
    return (text if text is not None else url).replace('""', '"')


def _sheet_member(archive: zipfile.ZipFile, index: int) -> str | None:
    """The archive member of the ``index``-th sheet, in the workbook's order."""
    sheets = ElementTree.fromstring(archive.read("xl/workbook.xml")).iter(f"{_MAIN}sheet")
    ids = [sheet.get(_REL_ID) for sheet in sheets]
    if index >= len(ids):
        return None
    rels = ElementTree.fromstring(archive.read("xl/_rels/workbook.xml.rels"))
    target = next((rel.get("Target", "") for rel in rels.iter(_RELS)
                   if rel.get("Id") == ids[index]), "")
    member = target.lstrip("/") if target.startswith("/") else posixpath.normpath(
        posixpath.join("xl", target))
    return member if member in archive.namelist() else None


def _position(reference: str) -> tuple[int, int]:
    match = _CELL_REF.fullmatch(reference)
    if match is None:
        return (0, 0)
    column = 0
    for letter in match.group(1):
        column = column * 26 + ord(letter) - ord("A") + 1
    return int(match.group(2)), column
