"""Benchmarks: `python -m benchmarks` runs them all, `python -m benchmarks.<name>` one.

Each benchmark is a module with `main(argv) -> int` that prints a table and writes its
results to `benchmarks/<name>.json`.
"""
