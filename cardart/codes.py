"""Which card codes exist in which variant (the engine's codes, as plain strings)."""

from __future__ import annotations

NUMBERS = ("1", "2", "3", "4", "5", "6")
PLUS = tuple(f"{n}+" for n in NUMBERS)
LLAMA = "L"
PINK_LLAMA = "P"

VARIANT_CODES: dict[str, frozenset[str]] = {
    "classic": frozenset((*NUMBERS, LLAMA)),
    "party": frozenset((*NUMBERS, *PLUS, LLAMA, PINK_LLAMA)),
    "komarami": frozenset((*NUMBERS, LLAMA)),
}
VARIANTS = tuple(VARIANT_CODES)


def check_variant(variant: str) -> None:
    if variant not in VARIANT_CODES:
        raise ValueError(f"unknown variant {variant!r}; expected one of {VARIANTS}")


def check_code(code: str, variant: str) -> None:
    check_variant(variant)
    if not isinstance(code, str) or code not in VARIANT_CODES[variant]:
        raise ValueError(f"{code!r} is not a card of the {variant} variant")


def value_of(code: str) -> int | None:
    """1-6 for number and plus cards, None for llamas."""
    return int(code[0]) if code[0] in "123456" else None
