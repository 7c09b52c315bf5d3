"""Discord's OpenAPI document: route matching and request-body validation.

The 1.2 MB document is loaded once per process; a compiled validator is cached per operation.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import referencing
import referencing.jsonschema

# Vendored with its licence (openapi/SOURCE.md says which commit and how to refresh it).
SPEC_PATH = Path(__file__).resolve().parent / "openapi" / "openapi.json"
SPEC_URI = "urn:discord:openapi"
VERDICTS_KEPT = 4096  # bodies whose verdict is remembered
_METHODS = ("get", "put", "post", "patch", "delete")


@dataclass(frozen=True)
class Operation:
    method: str  # upper case
    template: str  # e.g. /channels/{channel_id}/messages
    operation_id: str
    has_body: bool
    # The scopes a user's Bearer token may call it with (its `security`); none: a bot only.
    oauth2_scopes: tuple[str, ...] = ()

    @property
    def route(self) -> str:
        return f"{self.method} {self.template}"


@dataclass(frozen=True)
class BodyProblem:
    path: tuple[str | int, ...]
    message: str


def _allow_integer_snowflakes(document: dict[str, Any]) -> None:
    # Discord accepts snowflakes as JSON integers (discord.py sends recipient_id as an int);
    # the document only says "string", so widen the one shared definition.
    schemas = document["components"]["schemas"]
    string_form = schemas["SnowflakeType"]
    schemas["SnowflakeType"] = {
        "anyOf": [string_form, {"type": "integer", "minimum": 0}],
        "format": "snowflake",
    }


class SpecMissing(FileNotFoundError):
    """The vendored document is not where it belongs: one line that names it."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            f"Discord's OpenAPI document is missing: {path} "
            "(it is part of the project: `git checkout -- loopback/openapi`)")


def _first_segment(path: str) -> str:
    """ "channels" of "/channels/1/messages"; "{" for a template that starts with a name."""
    parts = path.split("/", 2)
    first = parts[1] if len(parts) > 1 else ""
    return "{" if first.startswith("{") else first


class OpenApiSpec:
    def __init__(self, path: Path = SPEC_PATH) -> None:
        if not path.is_file():
            raise SpecMissing(path)
        document = json.loads(path.read_text())
        _allow_integer_snowflakes(document)
        self.document = document
        resource = referencing.Resource.from_contents(
            document, default_specification=referencing.jsonschema.DRAFT202012
        )
        self._registry = referencing.Registry().with_resource(SPEC_URI, resource)
        self._routes = self._compile_routes(document["paths"])
        self._by_start: dict[tuple[str, str], list[tuple[re.Pattern[str], Operation]]] = {}
        self._validators: dict[str, jsonschema.Draft202012Validator] = {}
        # Verdicts on bodies seen before: every bot start sends the same command list, whose
        # validation (oneOf over every option type) costs ~0.35 s; a test run starts hundreds.
        self._verdicts: dict[tuple[str, str], list[BodyProblem]] = {}

    @staticmethod
    def _compile_routes(paths: dict[str, Any]) -> list[tuple[re.Pattern[str], Operation]]:
        routes = []
        for template, item in paths.items():
            pattern = re.sub(r"\\\{[a-z_]+\\\}", "[^/]+", re.escape(template))
            for method in _METHODS:
                if method in item:
                    op = item[method]
                    scopes = tuple(sorted({scope for way in op.get("security") or []
                                           for scope in way.get("OAuth2", [])}))
                    operation = Operation(
                        method.upper(), template, op["operationId"], "requestBody" in op,
                        scopes,
                    )
                    routes.append((re.compile(f"^{pattern}$"), operation))
        # "/messages/@original" must win over "/messages/{message_id}": most literal text first.
        routes.sort(key=lambda r: -len(re.sub(r"\{[a-z_]+\}", "", r[1].template)))
        return routes

    def match(self, method: str, path: str) -> Operation | None:
        for pattern, operation in self._candidates(method, _first_segment(path)):
            if pattern.match(path):
                return operation
        return None

    def _candidates(self, method: str, first: str) -> list[tuple[re.Pattern[str], Operation]]:
        """The routes a request's method and first path segment may match, in precedence
        order (every request a benchmark's driver serves is matched: a scan of every route
        each time was a thirtieth of its CPU)."""
        key = (method, first)
        found = self._by_start.get(key)
        if found is None:
            found = self._by_start[key] = [
                (pattern, operation) for pattern, operation in self._routes
                if operation.method == method
                and _first_segment(operation.template) in (first, "{")]
        return found

    def path_exists(self, path: str) -> bool:
        return any(pattern.match(path) for pattern, _ in self._routes)

    def _validator(self, operation: Operation) -> jsonschema.Draft202012Validator:
        validator = self._validators.get(operation.operation_id)
        if validator is None:
            pointer = "/".join(
                part.replace("~", "~0").replace("/", "~1")
                for part in (
                    "paths", operation.template, operation.method.lower(),
                    "requestBody", "content", "application/json", "schema",
                )
            )
            schema = {"$ref": f"{SPEC_URI}#/{pointer}"}
            validator = jsonschema.Draft202012Validator(schema, registry=self._registry)
            self._validators[operation.operation_id] = validator
        return validator

    def body_problems(self, operation: Operation, body: Any) -> list[BodyProblem]:
        """Why Discord would refuse ``body`` for ``operation`` (empty when it is acceptable)."""
        if not operation.has_body:
            return []
        key = (operation.operation_id, json.dumps(body, sort_keys=True, default=repr))
        verdict = self._verdicts.get(key)
        if verdict is None:
            verdict = self._verdicts[key] = self._problems(operation, body)
            if len(self._verdicts) > VERDICTS_KEPT:
                del self._verdicts[next(iter(self._verdicts))]  # the oldest
        return list(verdict)

    def _problems(self, operation: Operation, body: Any) -> list[BodyProblem]:
        error = jsonschema.exceptions.best_match(self._validator(operation).iter_errors(body))
        if error is None:
            return []
        return [BodyProblem(tuple(error.absolute_path), error.message[:300])]


@functools.cache
def load_spec() -> OpenApiSpec:
    """The process-wide parsed document (parsing it costs a few hundred milliseconds)."""
    return OpenApiSpec()


def spec_copy() -> dict[str, Any]:
    return copy.deepcopy(load_spec().document)
