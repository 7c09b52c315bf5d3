"""Command line.

python -m lama simulate --variant classic --players 4 --rounds 100000
python -m lama arena --players hard,normal,normal,normal --games 2000 --seed 1 --json
python -m lama play --variant party --ais 3 --level hard
"""

from __future__ import annotations

import argparse
import json
import sys

from lama.ai import POLICIES
from lama.rules import RULESETS
from lama.simulate import simulate


def _policy_list(text: str) -> list[str]:
    names = [p.strip().lower() for p in text.split(",") if p.strip()]
    unknown = [p for p in names if p not in POLICIES]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown policy {', '.join(unknown)}; known: {', '.join(sorted(POLICIES))}"
        )
    if not 2 <= len(names) <= 6:
        raise argparse.ArgumentTypeError("give 2 to 6 comma-separated policies")
    return names


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m lama")
    sub = parser.add_subparsers(dest="command", required=True)

    sim = sub.add_parser("simulate", help="play many independent rounds and print statistics")
    sim.add_argument("--variant", choices=sorted(RULESETS), default="classic")
    sim.add_argument("--players", type=int, default=4, choices=range(2, 7))
    sim.add_argument("--policy", choices=sorted(POLICIES), default="random")
    sim.add_argument("--rounds", type=int, default=100_000)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--slow", action="store_true", help="use observations even for random")

    ar = sub.add_parser("arena", help="play full games between policies and compare them")
    ar.add_argument(
        "--players",
        type=_policy_list,
        default=["hard", "normal", "normal", "normal"],
        help="comma-separated policies, one per seat (default hard,normal,normal,normal)",
    )
    ar.add_argument("--games", type=_positive, default=400)
    ar.add_argument("--seed", type=int, default=1)
    ar.add_argument("--variant", choices=sorted(RULESETS), default="classic")
    ar.add_argument("--target", type=_positive, default=40)
    ar.add_argument(
        "--jobs", type=_positive, default=1, help="worker processes (results do not change)"
    )
    ar.add_argument("--json", action="store_true", help="print one JSON object")

    pl = sub.add_parser("play", help="play a game in the terminal against computer players")
    pl.add_argument("--variant", choices=sorted(RULESETS))
    pl.add_argument("--ais", type=int, choices=range(1, 6), help="computer players (1-5)")
    pl.add_argument("--level", choices=["easy", "random", "normal", "hard"])
    pl.add_argument("--seed", type=int, help="deal seed (default: random)")
    pl.add_argument("--target", type=_positive)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "simulate":
        stats = simulate(
            args.variant, args.players, args.policy, args.rounds, args.seed, fast=not args.slow
        )
        json.dump(stats, sys.stdout, indent=2)
        print()
    elif args.command == "arena":
        from lama.arena import arena, format_report

        result = arena(
            args.players,
            args.games,
            args.seed,
            variant=args.variant,
            target=args.target,
            jobs=args.jobs,
        )
        if args.json:
            json.dump(result, sys.stdout, indent=2)
            print()
        else:
            print(format_report(result))
    elif args.command == "play":
        from lama.play import run_from_args

        return run_from_args(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
