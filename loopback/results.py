"""What the test sees of one interaction: the bot's first answer, its message, follow-ups."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from .interactions import DEFER, DEFER_UPDATE
from .model import FakeMessage
from .records import InteractionRecord
from .world import World


class InteractionResult:
    """What Discord showed for one interaction; properties read the *current* state."""

    def __init__(self, fake: World, record: InteractionRecord) -> None:
        self.fake, self.record = fake, record

    def __repr__(self) -> str:
        return (f"<InteractionResult type={self.response_type} ephemeral={self.ephemeral} "
                f"content={self.content!r} followups={len(self.followups)}>")

    @property
    def response_type(self) -> int | None:
        return self.record.response_type

    @property
    def refused(self):
        """The Discord error the bot got for its first answer (late, invalid...), if any."""
        return self.record.refused

    @property
    def deferred(self) -> bool:
        return self.response_type in (DEFER, DEFER_UPDATE)

    @property
    def message(self) -> FakeMessage | None:
        """The response message: the reply, the "thinking" message, or the updated message."""
        return self.record.original

    @property
    def ephemeral(self) -> bool:
        return bool(self.message and self.message.ephemeral)

    @property
    def content(self) -> str:
        return self.message.content if self.message else ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.message.embeds if self.message else []

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.message.components if self.message else []

    @property
    def text(self) -> str:
        return self.message.text if self.message else ""

    @property
    def followups(self) -> list[FakeMessage]:
        return self.record.followups

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        return self.record.choices

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.record.modal

    @property
    def activity_instance(self) -> Any:
        """The Activity instance a LAUNCH_ACTIVITY answer took the user into (else None)."""
        return self.record.activity_instance

    @property
    def elapsed(self) -> float | None:
        """Real seconds from dispatch to the bot's first answer."""
        return self.record.answered_after

    async def wait_for(self, predicate: Callable[[], bool], timeout: float | None = None) -> None:
        """Wait until ``predicate()`` holds, re-checking whenever Discord's side changes."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (timeout if timeout is not None else self.fake.wait_timeout)
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"condition not met within the time allowed: {self!r}")
            changed = self.record.changed
            try:
                await asyncio.wait_for(changed.wait(), remaining)
            except TimeoutError:
                continue

    async def followup(self, index: int = 0, timeout: float | None = None) -> FakeMessage:
        """The ``index``-th follow-up (waiting for it). After a defer the first follow-up is
        the former "thinking" message, as on Discord."""
        await self.wait_for(lambda: len(self.followups) > index, timeout)
        return self.followups[index]

    async def edited(self, timeout: float | None = None) -> FakeMessage:
        """The response message once the bot has edited it since its first answer (after a
        defer, say)."""
        baseline = self.record.edits_at_answer
        await self.wait_for(lambda: self.message is not None and self.message.edits > baseline,
                            timeout)
        assert self.message is not None
        return self.message
