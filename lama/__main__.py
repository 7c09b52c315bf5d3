"""Command line: ``python -m lama simulate --variant classic --players 4 --rounds 100000``."""

from __future__ import annotations

import argparse
import json
import sys

from lama.ai import POLICIES
from lama.rules import RULESETS
from lama.simulate import simulate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lama")
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play many independent rounds and print statistics")
    sim.add_argument("--variant", choices=sorted(RULESETS), default="classic")
    sim.add_argument("--players", type=int, default=4, choices=range(2, 7))
    sim.add_argument("--policy", choices=sorted(POLICIES), default="random")
    sim.add_argument("--rounds", type=int, default=100_000)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--slow", action="store_true", help="use observations even for random")
    args = parser.parse_args(argv)
    if args.command == "simulate":
        stats = simulate(
            args.variant, args.players, args.policy, args.rounds, args.seed, fast=not args.slow
        )
        json.dump(stats, sys.stdout, indent=2)
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
