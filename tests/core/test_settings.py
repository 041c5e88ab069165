"""Settings precedence (defaults < config file < env), the broken-file fallback, 0600 saves
of what the user changed (never a value from the environment), and the first-frame preview."""

from __future__ import annotations

import stat
import tomllib
from pathlib import Path

import pytest
from pydantic import SecretStr

from creditscope.commands.web import has_live_key
from creditscope.sandbox import REVOKED_KEY, SANDBOX_BASE_URL
from creditscope.settings import Settings, SettingsError, load_settings, save_settings
from creditscope.settings_preview import SettingsPreview, read_settings_preview


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


# --- provenance: saving writes what the user changed, on top of the file -------------------

ENV_KEY = "sk_live_from_the_environment_7777"


def test_a_theme_change_with_an_env_key_leaves_the_key_out_of_the_file(
    isolated_dirs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_config(isolated_dirs, 'budget = 40\nfuture_option = "kept"\n[ttl]\ncatalog = 5\n')
    monkeypatch.setenv("CREDITSCOPE_API_KEY", ENV_KEY)
    monkeypatch.setenv("CREDITSCOPE_BASE_URL", "https://api.example.test")
    monkeypatch.setenv("CREDITSCOPE_TTL__RESTAURANTS_MENU", "30")
    settings, _ = load_settings()
    assert settings.api_key == SecretStr(ENV_KEY)
    assert ENV_KEY not in repr(settings) + repr(settings.provenance)

    save_settings(settings.model_copy(update={"theme": "nord"}))

    text = path.read_text()
    assert ENV_KEY not in text and "api.example.test" not in text
    assert "restaurants_menu" not in text  # the environment's, not the file's
    assert tomllib.loads(text) == {"budget": 40, "future_option": "kept", "ttl": {"catalog": 5},
                                   "theme": "nord"}
    monkeypatch.delenv("CREDITSCOPE_API_KEY")
    assert load_settings()[0].api_key is None


def test_a_value_typed_over_the_environment_is_saved_and_the_env_still_wins(
    isolated_dirs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CREDITSCOPE_BUDGET", "70")
    settings, _ = load_settings()
    assert settings.env_overrides() == []
    typed = settings.model_copy(update={"budget": 50})
    save_settings(typed)
    assert "budget = 50" in config_path(isolated_dirs).read_text()
    assert typed.env_overrides() == ["CREDITSCOPE_BUDGET"]  # said after Save
    assert load_settings()[0].budget == 70


def test_clearing_a_value_removes_it_and_saved_values_become_the_baseline(
    isolated_dirs: dict[str, Path],
) -> None:
    path = write_config(isolated_dirs, 'budget = 30\ntheme = "nord"\n[keys]\n"nav.catalog" = "c"\n')
    settings, _ = load_settings()
    settings = settings.model_copy(update={"budget": 50, "theme": None, "keys": {}})
    save_settings(settings)
    assert tomllib.loads(path.read_text()) == {"budget": 50}
    save_settings(settings.model_copy(update={"budget": 30}))  # back to the loaded value
    assert tomllib.loads(path.read_text()) == {"budget": 30}


def test_saving_keeps_what_another_program_wrote_since_loading(
    isolated_dirs: dict[str, Path],
) -> None:
    path = write_config(isolated_dirs, "budget = 30\n")
    settings, _ = load_settings()
    path.write_text('budget = 35\n[keys]\n"nav.catalog" = "c"\n')  # edited by hand meanwhile
    save_settings(settings.model_copy(update={"theme": "nord"}))
    assert tomllib.loads(path.read_text()) == {"budget": 35, "keys": {"nav.catalog": "c"},
                                               "theme": "nord"}


@pytest.mark.parametrize("text", ["base_url = [unclosed", "budget = 'lots'\n"])
def test_a_file_loading_ignored_is_not_overwritten(
    isolated_dirs: dict[str, Path], text: str
) -> None:
    path = write_config(isolated_dirs, text)
    settings, warnings = load_settings()
    assert warnings
    with pytest.raises(SettingsError, match=r"config\.toml"):
        save_settings(settings.model_copy(update={"theme": "nord"}))
    assert path.read_text() == text


def test_using_the_sandbox_saves_exactly_what_the_next_call_uses(
    isolated_dirs: dict[str, Path],
) -> None:
    path = write_config(isolated_dirs, f'base_url = "https://api.example.test"\n'
                        f'api_key = "{REVOKED_KEY}"\noffline = true\nbudget = 9\n')
    settings, _ = load_settings()
    switched = settings.using_sandbox()
    save_settings(switched)
    assert tomllib.loads(path.read_text()) == {"budget": 9}
    loaded, _ = load_settings()
    assert loaded.is_sandbox and switched.is_sandbox
    assert (loaded.api_key, loaded.offline) == (switched.api_key, switched.offline) == (None, False)


@pytest.mark.parametrize(("base_url", "sandbox"), [
    (None, True), ("", True), ("   ", True), (SANDBOX_BASE_URL, True),
    (SANDBOX_BASE_URL + "/", True), ("https://api.example.test", False),
    ("http://127.0.0.1:8080", False),
])
def test_one_rule_says_whether_the_sandbox_is_used(base_url: str | None, sandbox: bool) -> None:
    settings = Settings(base_url=base_url, api_key=SecretStr(ENV_KEY))
    preview = SettingsPreview(config_file=Path("config.toml"), base_url=base_url)
    assert settings.is_sandbox is preview.is_sandbox is sandbox
    assert has_live_key(settings) is not sandbox  # a live key is never "live" on the sandbox


def test_the_first_frame_preview_agrees_with_the_loaded_settings(
    isolated_dirs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_config(isolated_dirs, 'theme = "nord"\nbase_url = "https://file.example"\n'
                 '[keys]\n"nav.catalog" = "c"\n"nav.activity" = "a"\n')
    monkeypatch.setenv("CREDITSCOPE_BASE_URL", " https://env.example ")
    monkeypatch.setenv("CREDITSCOPE_OFFLINE", "yes")
    monkeypatch.setenv("CREDITSCOPE_KEYS", '{"nav.activity": "f5"}')
    preview = read_settings_preview()
    settings, _ = load_settings()
    for name in ("theme", "keys", "base_url", "offline", "config_file"):
        assert getattr(preview, name) == getattr(settings, name), name
    assert settings.keys == {"nav.catalog": "c", "nav.activity": "f5"}


def test_the_config_file_is_valid_toml_for_any_text(isolated_dirs: dict[str, Path]) -> None:
    hostile = 'a "quote", a \\ backslash,\na newline, a tab\t, DEL \x7f, NUL \x00, é ✓'
    settings = Settings(theme=hostile, keys={hostile: "ctrl+x", "app.help": hostile},
                        timeout=0.1 + 0.2)
    path = save_settings(settings)
    loaded, warnings = load_settings()
    assert warnings == []
    assert (loaded.theme, loaded.keys, loaded.timeout) == (
        settings.theme, settings.keys, settings.timeout)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


HAND_WRITTEN = """\
# My creditscope settings: I keep them short.

theme = "nord"  # easier on the eyes at night
budget = 40

# Not creditscope's yet; another version reads it.
future_option = "kept"

[ttl]
# the catalog barely changes
catalog = 5
"""


def test_a_theme_change_keeps_the_users_comments_order_and_unknown_keys(
    isolated_dirs: dict[str, Path],
) -> None:
    path = write_config(isolated_dirs, HAND_WRITTEN)
    settings, _ = load_settings()
    save_settings(settings.model_copy(update={"theme": "dracula"}))
    assert path.read_text() == HAND_WRITTEN.replace('"nord"', '"dracula"')
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_new_table_entry_and_a_cleared_value_touch_only_their_lines(
    isolated_dirs: dict[str, Path],
) -> None:
    path = write_config(isolated_dirs, HAND_WRITTEN)
    settings, _ = load_settings()
    ttl = settings.ttl.model_copy(update={"restaurants_menu": 30})
    save_settings(settings.model_copy(update={"budget": None, "ttl": ttl}))
    assert path.read_text() == HAND_WRITTEN.replace("budget = 40\n", "").replace(
        "catalog = 5\n", "catalog = 5\nrestaurants_menu = 30\n")
