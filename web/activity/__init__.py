"""The Activity's backend: LAMA played inside Discord, another window on the very same hosted
game (docs/activity.md). One job per module:

- `sessions`: the bot's own signed, short-lived sessions;
- `signin`: a player signed in through Discord's OAuth2 and the activity instance;
- `live`: the WebSocket per open Activity, states pushed as games change (other processes'
  commits too), requests answered;
- `view`: what one viewer sees (a hand only for its own player) and `words`, its words;
- `actions`: a request made through the game service, as the session's user;
- `refusals`: why a request changed nothing, in the player's language (the one table);
- `routes`: the sub-application under /activity/, its security headers.
"""

from .routes import DISCORD_FRAME_ANCESTORS, ActivityDeps, build_activity_app
from .signin import Credentials

__all__ = ["DISCORD_FRAME_ANCESTORS", "ActivityDeps", "Credentials", "build_activity_app"]
