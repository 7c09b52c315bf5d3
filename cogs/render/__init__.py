"""The outbound adapter: committed game updates (and tournament news) shown on Discord.

Its front door is `Renderer` (fed `GameUpdate`s by the service); the rest are its parts.
"""
