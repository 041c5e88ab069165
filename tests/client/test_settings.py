"""Settings precedence (defaults < config file < env), the broken-file fallback, 0600 saves."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from pydantic import SecretStr

from creditscope.settings import Settings, SettingsError, load_settings, save_settings


def config_path(dirs: dict[str, Path]) -> Path:
    return dirs["config"] / "creditscope" / "config.toml"


def write_config(dirs: dict[str, Path], text: str) -> Path:
    path = config_path(dirs)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_defaults_use_the_sandbox_and_the_user_dirs(isolated_dirs: dict[str, Path]) -> None:
    settings, warnings = load_settings()
    assert warnings == []
    assert settings.is_sandbox and settings.api_key is None
    assert settings.cache_dir == isolated_dirs["cache"] / "creditscope"
    assert settings.data_dir == isolated_dirs["data"] / "creditscope"
    assert settings.config_file == config_path(isolated_dirs)
    assert settings.ttl.by_operation()["restaurants/search"] == 3600


def test_file_overrides_defaults_and_env_overrides_file(
    isolated_dirs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_config(isolated_dirs, 'base_url = "https://file.example"\nbudget = 50\n'
                 'theme = "nord"\n[ttl]\nrestaurants_search = 60\ncatalog = 5\n'
                 '[keys]\n"nav.catalog" = "c"\n')
    monkeypatch.setenv("CREDITSCOPE_BUDGET", "70")
    monkeypatch.setenv("CREDITSCOPE_TTL__CATALOG", "9")
    settings, warnings = load_settings()
    assert warnings == []
    assert settings.base_url == "https://file.example" and not settings.is_sandbox
    assert settings.budget == 70
    assert settings.theme == "nord"
    assert settings.ttl.restaurants_search == 60
    assert settings.ttl.catalog == 9
    assert settings.keys == {"nav.catalog": "c"}


def test_config_file_env_points_at_another_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "team.toml"
    other.write_text("offline = true\n")
    monkeypatch.setenv("CREDITSCOPE_CONFIG_FILE", str(other))
    settings, _ = load_settings()
    assert settings.offline is True and settings.config_file == other


@pytest.mark.parametrize("text", ["base_url = [unclosed", "budget = 'lots'\n"])
def test_broken_config_falls_back_to_defaults_with_a_warning(
    isolated_dirs: dict[str, Path], text: str
) -> None:
    write_config(isolated_dirs, text)
    settings, warnings = load_settings()
    assert settings.budget is None and settings.is_sandbox
    assert len(warnings) == 1 and "config.toml" in warnings[0]


def test_a_bad_environment_variable_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CREDITSCOPE_BUDGET", "plenty")
    with pytest.raises(SettingsError, match="budget"):
        load_settings()


def test_save_writes_0600_toml_that_loads_back(isolated_dirs: dict[str, Path]) -> None:
    path = write_config(isolated_dirs, "")
    path.chmod(0o644)
    settings = Settings(
        base_url="https://api.example", api_key=SecretStr('sk_"quoted"\\key_1234'), budget=100,
        keys={"nav.catalog": "c"}, ttl={"restaurants_menu": 30},
    )
    assert save_settings(settings) == path
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    loaded, warnings = load_settings()
    assert warnings == []
    assert loaded.api_key is not None
    assert loaded.api_key.get_secret_value() == 'sk_"quoted"\\key_1234'
    assert (loaded.budget, loaded.ttl.restaurants_menu) == (100, 30)
    assert loaded.keys == {"nav.catalog": "c"}
    assert "restaurants_search" not in path.read_text()  # defaults are not written
