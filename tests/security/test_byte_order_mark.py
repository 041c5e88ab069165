"""A key file or config saved by Notepad starts with a UTF-8 byte order mark: it is no
character of the first line. Read with it, the first key never matched (and the banner
showed an invisible character) and the config's first line did not parse."""

from __future__ import annotations

from pathlib import Path

import pytest

from creditscope.commands.serve_keys import keys_from_file, shown_key
from creditscope.settings_file import read_toml
from creditscope.settings_preview import read_settings_preview

BOM = "\ufeff"


def test_a_key_file_starting_with_a_byte_order_mark_gives_its_first_key_as_written(
    tmp_path: Path,
) -> None:
    path = tmp_path / "keys.txt"
    path.write_text(f"{BOM}sk_live_first_key_4242\nsk_live_second_key_4242\n", encoding="utf-8")
    path.chmod(0o600)
    keys, _ = keys_from_file(path)
    assert keys == ["sk_live_first_key_4242", "sk_live_second_key_4242"]
    assert BOM not in shown_key(keys[0])  # the banner: nothing invisible


def test_a_config_starting_with_a_byte_order_mark_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f'{BOM}base_url = "http://127.0.0.1:19601"\ntheme = "nord"\n',
                    encoding="utf-8")
    assert read_toml(path) == {"base_url": "http://127.0.0.1:19601", "theme": "nord"}
    monkeypatch.setenv("CREDITSCOPE_CONFIG_FILE", str(path))
    preview = read_settings_preview({})
    assert (preview.base_url, preview.theme) == ("http://127.0.0.1:19601", "nord")
