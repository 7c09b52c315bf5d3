"""The test's side of Activities: users opening the Activity and signing in, as the Discord
client does it (`ActivityDriver`, mixed into `FakeDiscord` through the `Driver`)."""

from __future__ import annotations

from typing import Any

from .activities import APP_HANDLER, PRIMARY_ENTRY_POINT, default_entry_point
from .activity_state import FakeActivityInstance
from .driver import Driver
from .model import FakeUser
from .places import FakeChannel
from .records import APPLICATION_COMMAND
from .results import InteractionResult


class ActivityDriver(Driver):
    def enable_activities(self) -> None:
        """The Developer Portal's "Enable Activities": Discord gives the application its
        default Entry Point command ("launch", Discord launches it), if it has none."""
        self.activities.enabled = True
        commands = self.commands.setdefault(None, [])
        if not any(c.get("type") == PRIMARY_ENTRY_POINT for c in commands):
            command = {**default_entry_point(), "id": str(self.snowflakes.next()),
                       "application_id": str(self.application_id),
                       "version": str(self.snowflakes.next()),
                       "default_member_permissions": None, "nsfw": False}
            commands.append(command)

    def launch_activity(self, user: FakeUser, channel: FakeChannel | str | None
                        ) -> FakeActivityInstance:
        """`user` opens the Activity in `channel` from the App Launcher (or joins the one
        running there): the instance they are in."""
        return self.activities.launch(user, self._channel(channel, user), self.snowflakes.next())

    def authorize(self, user: FakeUser, scopes: tuple[str, ...] = ("identify",)) -> str:
        """The SDK's `authorize` inside the Activity, once `user` agreed: the code the
        Discord client hands the app (which its backend trades at /oauth2/token)."""
        return self.activities.authorize(user, self.clock(), scopes)

    async def use_entry_point(
        self, user: FakeUser, channel: FakeChannel | str | None,
    ) -> FakeActivityInstance | InteractionResult:
        """`user` picks the application's Entry Point command in `channel`. With Discord's
        handler (2) Discord launches the Activity itself and the app hears nothing: the
        instance. With the app's handler (1) the app gets the interaction and must answer
        LAUNCH_ACTIVITY: what it answered (`.activity_instance`)."""
        place = self._channel(channel, user)
        command = next((c for c in self.commands.get(None, [])
                        if c.get("type") == PRIMARY_ENTRY_POINT), None)
        if command is None:
            raise LookupError("the application has no Entry Point command")
        if command.get("handler") != APP_HANDLER:
            return self.activities.launch(user, place, self.snowflakes.next())
        data: dict[str, Any] = {"id": command["id"], "name": command["name"],
                                "type": PRIMARY_ENTRY_POINT}
        return await self._interact(user, place, APPLICATION_COMMAND, data)
