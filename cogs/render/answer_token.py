"""An interaction's own answer reached through its token alone, as discord.py's
`Interaction.edit_original_response` and `delete_original_response` reach it.

Why not keep the interaction: a hand shown in an interaction's answer is edited or deleted
through its token for up to 15 minutes (cogs/render/hands.py), and the interaction holds its
member, user, payload, namespace and response, some twenty objects the garbage collector
scans. Kept for every slash player's live hand, they were half of what a young collection
found alive under load and promoted, to be scanned again later (issue 33). The token, its
application and the client's shared state and session are all an edit or a delete needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
from discord.http import handle_message_parameters
from discord.state import ConnectionState

from cogs.answer_adapter import ANSWERS


@dataclass(frozen=True, slots=True)
class AnswerToken:
    application_id: int
    token: str
    state: ConnectionState  # the client's, shared by every interaction
    session: aiohttp.ClientSession  # the client's HTTP session, likewise

    @classmethod
    def of(cls, interaction: discord.Interaction) -> AnswerToken:
        return cls(interaction.application_id, interaction.token,
                   interaction._state, interaction._session)

    async def edit(self, **fields: Any) -> None:
        """Edit the answer with `Interaction.edit_original_response`'s keywords (content,
        embed(s), attachments, view, allowed_mentions)."""
        state, http = self.state, self.state.http
        with handle_message_parameters(
                previous_allowed_mentions=state.allowed_mentions, **fields) as params:
            data = await ANSWERS.edit_original_interaction_response(
                self.application_id, self.token, session=self.session, proxy=http.proxy,
                proxy_auth=http.proxy_auth, payload=params.payload,
                multipart=params.multipart, files=params.files,
            )
        view = fields.get("view")
        if view and not view.is_finished() and view.is_dispatchable():
            state.store_view(view, int(data["id"]))  # as discord.py: its presses find it

    async def delete(self) -> None:
        http = self.state.http
        await ANSWERS.delete_original_interaction_response(
            self.application_id, self.token, session=self.session, proxy=http.proxy,
            proxy_auth=http.proxy_auth,
        )
