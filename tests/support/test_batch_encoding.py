"""A batch file's encoding, settled before anything is sent: UTF-8 with or without a BOM,
UTF-16 with a BOM, ``--encoding``; anything else refused at its exact line and byte."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from creditscope.support.batch_encoding import (
    EncodingProblem,
    detect_encoding,
    likely_encoding,
)

LINES = ["name,website"] + [f"Company {n},c{n}.example" for n in range(1, 1201)]


def text_of(path: Path, forced: str | None = None) -> str:
    encoding = detect_encoding(path, forced)
    with encoding.open(path) as handle:
        return handle.read()


@pytest.mark.parametrize(("bom", "codec", "label"), [
    (b"", "utf-8", "UTF-8"),
    (codecs.BOM_UTF8, "utf-8", "UTF-8 with a BOM"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16 (little-endian, with a BOM)"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16 (big-endian, with a BOM)"),
])
def test_utf8_and_utf16_are_read_without_their_bom(
    tmp_path: Path, bom: bytes, codec: str, label: str
) -> None:
    text = "Name\tWebsite\r\nCafé Müller\tcafe.example\r\n北京\t\r\n"
    path = tmp_path / "in.txt"
    path.write_bytes(bom + text.encode(codec))
    encoding = detect_encoding(path)
    assert (encoding.codec, encoding.label) == (codec, label)
    assert encoding.from_excel == bool(bom)  # a BOM: Excel wrote it, Excel gets one back
    assert text_of(path) == text


def test_a_latin1_byte_late_in_the_file_is_named_by_line_and_byte(tmp_path: Path) -> None:
    lines = list(LINES)
    lines[601] = "Café Müller,cafe.example"  # line 602, as in the customer's export
    path = tmp_path / "export.csv"
    path.write_bytes(("\n".join(lines) + "\n").encode("latin-1"))
    with pytest.raises(EncodingProblem) as caught:
        detect_encoding(path)
    message = str(caught.value)
    assert "line 602, byte 4" in message  # "Caf" then the é
    assert "not UTF-8 (looks like cp1252" in message
    assert "re-run with --encoding cp1252" in message and "nothing was sent" in message
    assert text_of(path, "cp1252").splitlines()[601] == "Café Müller,cafe.example"


def test_a_bad_byte_past_the_first_chunk_and_a_character_split_by_one(tmp_path: Path) -> None:
    # 70,000 ASCII bytes, then a UTF-8 é across the 65,536-byte read, then a lone 0xFF.
    head = ("x" * 99 + "\n") * 655 + "y" * 35
    path = tmp_path / "long.csv"
    path.write_bytes(head.encode() + "é\n".encode() + b"ok\nab\xffc\n")
    with pytest.raises(EncodingProblem, match=r"line 658, byte 3 \(offset 65543 in the file\)"):
        detect_encoding(path)
    path.write_bytes(head.encode() + "é\nok\n".encode())
    assert text_of(path).endswith("yé\nok\n")


def test_utf16_without_a_bom_is_refused_with_its_name(tmp_path: Path) -> None:
    path = tmp_path / "unicode.txt"
    path.write_bytes("name\nAcme\n".encode("utf-16-le"))
    with pytest.raises(EncodingProblem, match=r"line 1: a NUL byte.*--encoding utf-16-le"):
        detect_encoding(path)
    assert text_of(path, "utf-16-le") == "name\nAcme\n"


def test_a_forced_encoding_is_checked_too(tmp_path: Path) -> None:
    path = tmp_path / "in.csv"
    path.write_bytes(b"name\nAcme\nCaf\xe9\n")
    with pytest.raises(EncodingProblem, match=r"line 3, byte 4.*not ascii text; check --encoding"):
        detect_encoding(path, "ascii")
    with pytest.raises(LookupError):
        detect_encoding(path, "no-such-codec")
    bom = tmp_path / "bom.csv"
    bom.write_bytes(codecs.BOM_UTF8 + b"name\nAcme\n")
    assert text_of(bom, "utf-8") == "name\nAcme\n"  # the BOM is not part of the header


@pytest.mark.parametrize(("sample", "guess"), [
    ("Café Müller,x.de\nSociété Générale,socgen.fr\n".encode("cp1252"), "cp1252"),
    ("“Quoted” name — Ltd,x.com\n".encode("cp1252"), "cp1252"),
    ("Acme™ Ltd,acme.com\nGlobex® GmbH,globex.de\n".encode("cp1252"), "cp1252"),
    # Excel for Mac: cp1252 would read NestlŽ S.A. and LÕOrŽal, cp1250 LŐOrŽal.
    ("Nestlé S.A.,nestle.com\rL’Oréal,loreal.com\r".encode("mac_roman"), "mac_roman"),
    ("Nestlé S.A.,nestle.com\r".encode("mac_roman"), "mac_roman"),
    # Central European: cp1252 would read Przedsiêbiorstwo £ódŸ.
    ("Przedsiębiorstwo Łódź,lodz.pl\nČeská spořitelna,csas.cz\n".encode("cp1250"), "cp1250"),
    ("ООО Ромашка,romashka.ru\nСбербанк,sberbank.ru\n".encode("cp1251"), "cp1251"),
    (b"", None),
])
def test_the_likely_encoding_is_a_common_one(sample: bytes, guess: str | None) -> None:
    assert likely_encoding(sample) == guess


def test_the_advice_is_checked_on_the_whole_file(tmp_path: Path) -> None:
    # cp1252 reads the first 70,000 bytes, but not a byte it leaves undefined (0x81) after
    # them: cp1252 is not offered, and nothing else reads "Café" right.
    path = tmp_path / "export.csv"
    path.write_bytes(("Café Müller,x.de\n" * 4200).encode("cp1252") + b"Odd\x81,y.de\n")
    with pytest.raises(EncodingProblem) as caught:
        detect_encoding(path)
    assert "line 1, byte 4" in str(caught.value)
    assert "re-run with --encoding" not in str(caught.value)
    assert "(cp1252 for most Windows exports)" in str(caught.value)
