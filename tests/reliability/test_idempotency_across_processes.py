"""Issue 13, item 10: the sandbox's Idempotency-Key replay and its charge happen in one
SQLite transaction, so two processes (``serve --workers 2``) answering the same
submission at once charge it once."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from creditscope.sandbox import DEMO_KEY
from creditscope.sandbox.accounts import AccountStore, key_digest
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig
from creditscope.sandbox.post_bodies import fingerprint

BODY = {"name": "Northwind Labs"}
SCOPE = f"{key_digest(DEMO_KEY)}:find_company"


def test_a_duplicate_that_raced_past_the_early_check_is_replayed_not_charged(
    tmp_path: Path,
) -> None:
    db = tmp_path / "sandbox.sqlite3"
    first = AccountStore(db, {DEMO_KEY: 100})  # worker process 1
    second = AccountStore(db, {DEMO_KEY: 100})  # worker process 2, same file
    remember = (SCOPE, "submission-1", fingerprint(BODY), {"answer": 1})
    # Both workers looked before either charged: neither saw a stored reply.
    assert first.recall(SCOPE, "submission-1") is None
    assert second.recall(SCOPE, "submission-1") is None
    charged = first.charge(key_digest(DEMO_KEY), 10, "find_company", "req_1", remember)
    duplicate = second.charge(key_digest(DEMO_KEY), 10, "find_company", "req_2",
                              (*remember[:3], {"answer": 2}))
    assert charged.ok and charged.replay is None
    assert duplicate.replay is not None and duplicate.replay.body == {"answer": 1}
    assert first.balance(key_digest(DEMO_KEY)) == 90
    assert [credits for _, credits in second.charges_for(key_digest(DEMO_KEY))] == [10]
    first.close()
    second.close()


@pytest.mark.parametrize("path", ["/professional_network/find_company", "/provider-requests"])
async def test_two_workers_on_one_file_answer_a_repeated_key_once(
    tmp_path: Path, path: str
) -> None:
    db = tmp_path / "sandbox.sqlite3"
    workers = [create_app(SandboxConfig(db_path=db)) for _ in range(2)]
    headers = {"X-API-Key": DEMO_KEY, "Idempotency-Key": "submission-2"}
    answers = []
    for app in workers:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://sandbox") as http:
            answers.append(await http.post(path, json={"name": "Acme"}, headers=headers))
    assert [a.status_code for a in answers] == [200, 200]
    assert answers[0].json() == answers[1].json()
    assert answers[1].headers["X-Credits-Charged"] == "0"
    store: AccountStore = workers[0].state.store
    expected = 10 if "find_company" in path else 0
    assert sum(c for _, c in store.charges_for(key_digest(DEMO_KEY))) == expected
