"""The Activity's own sessions (web/activity/sessions.py): signed with a key derived from the
client secret, valid 15 minutes, for one instance; anything else is refused, saying why."""

from __future__ import annotations

import base64
import json

import pytest

from web.activity.sessions import (
    LIFETIME_S,
    Refusal,
    Session,
    SessionKeys,
    SessionRefused,
    session_key,
)

NOW = 1_800_000_000.0
ALICE = Session(1234, "i-1-gc-5-6", 6, 5, "Alice", "cs", NOW + LIFETIME_S)


def refusal(keys: SessionKeys, token: str, *, now: float = NOW,
            instance: str | None = ALICE.instance_id) -> Refusal:
    with pytest.raises(SessionRefused) as refused:
        keys.verify(token, now, instance)
    return refused.value.reason


def test_a_signed_session_verifies_on_any_process_with_the_same_secret():
    token = SessionKeys("secret").sign(ALICE)
    assert SessionKeys("secret").verify(token, NOW, ALICE.instance_id) == ALICE
    dm = Session(9, "i-2-pc-7", 7, None, "Bob", "en", NOW + 1)
    assert SessionKeys("secret").verify(SessionKeys("secret").sign(dm), NOW) == dm


def test_the_key_is_derived_from_the_secret_and_is_not_the_secret():
    assert session_key("secret") != b"secret" and len(session_key("secret")) == 32
    assert session_key("secret") != session_key("other")
    assert "secret" not in SessionKeys("secret").sign(ALICE)


@pytest.mark.parametrize("forge", [
    lambda t: t + "x",  # the signature changed
    lambda t: t.split(".")[0] + ".",  # no signature
    lambda t: "e30." + t.split(".")[1],  # another payload ({}) under the same signature
    lambda t: "",
    lambda t: "." * 5000,
    lambda t: "not a session",
])
def test_a_forged_session_is_refused(forge):
    keys = SessionKeys("secret")
    assert refusal(keys, forge(keys.sign(ALICE))) is Refusal.FORGED


def test_a_session_of_another_user_made_by_editing_the_payload_is_refused():
    keys = SessionKeys("secret")
    payload, mac = keys.sign(ALICE).split(".")
    data = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    data["u"] = "9999"
    edited = base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()
    assert refusal(keys, f"{edited}.{mac}") is Refusal.FORGED


def test_a_session_signed_with_another_secret_is_refused():
    assert refusal(SessionKeys("secret"), SessionKeys("guess").sign(ALICE)) is Refusal.FORGED


def test_a_session_expires_after_15_minutes():
    keys = SessionKeys("secret")
    token = keys.sign(ALICE)
    assert keys.verify(token, NOW + LIFETIME_S - 1, ALICE.instance_id) == ALICE
    assert refusal(keys, token, now=NOW + LIFETIME_S) is Refusal.EXPIRED


def test_a_session_for_another_instance_is_refused():
    keys = SessionKeys("secret")
    assert refusal(keys, keys.sign(ALICE), instance="i-9-gc-5-8") is Refusal.OTHER_INSTANCE
