"""OpenAI's strict mode (Structured Outputs, function calling with ``"strict": true``) as a checker:
the rules its guide publishes under "Supported schemas", encoded here independently of the code
that writes the strict variant (interfaces/schema.py), so that a test can hold one against the
other. ``violations`` returns every rule a function definition breaks, as readable lines."""

from __future__ import annotations

import re
from typing import Any

TYPES = frozenset({"string", "number", "boolean", "integer", "object", "array", "null"})
# Supported keywords, per type; the structural ones hold for any schema.
STRUCTURE = frozenset({"type", "description", "enum", "const", "anyOf", "$ref", "$defs"})
BY_TYPE: dict[str, frozenset[str]] = {
    "string": frozenset({"pattern", "format"}),
    "number": frozenset({"multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"}),
    "integer": frozenset({"multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"}),
    "array": frozenset({"items", "minItems", "maxItems"}),
    "object": frozenset({"properties", "required", "additionalProperties"}),
    "boolean": frozenset(),
    "null": frozenset(),
}
FORMATS = frozenset({"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"})
MAX_DEPTH = 10  # levels of object nesting
MAX_PROPERTIES = 5000  # object properties in all
MAX_STRING_TOTAL = 120_000  # characters of property names, definition names, enum and const values
MAX_ENUM_VALUES = 1000  # across every enum
LARGE_ENUM = 250  # an enum with more string values than this ...
LARGE_ENUM_CHARS = 15_000  # ... may hold at most this many characters
NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


class _Tally:
    def __init__(self) -> None:
        self.properties = 0
        self.strings = 0
        self.enum_values = 0


def violations(tool: dict[str, Any]) -> list[str]:
    """Every strict-mode rule an OpenAI tool definition (``{"type": "function", "function":
    {...}}``) breaks."""
    out: list[str] = []
    function = tool.get("function", {})
    if tool.get("type") != "function":
        out.append("type is not 'function'")
    if function.get("strict") is not True:
        out.append("function.strict is not true")
    if not NAME.match(str(function.get("name", ""))):
        out.append(f"function.name {function.get('name')!r} is not 1-64 of a-zA-Z0-9_-")
    schema = function.get("parameters")
    if not isinstance(schema, dict):
        return [*out, "no parameters object"]
    if schema.get("type") != "object" or "anyOf" in schema:
        out.append("the root is not an object schema (or is an anyOf)")
    definitions = schema.get("$defs", {})
    tally = _Tally()
    for name in definitions:
        tally.strings += len(name)
    _check(schema, "#", 1, definitions, tally, out, root=True)
    for name, definition in definitions.items():
        _check(definition, f"#/$defs/{name}", 1, definitions, tally, out)
    if tally.properties > MAX_PROPERTIES:
        out.append(f"{tally.properties} properties in all (at most {MAX_PROPERTIES})")
    if tally.strings > MAX_STRING_TOTAL:
        out.append(f"{tally.strings} characters of names and values (at most {MAX_STRING_TOTAL})")
    if tally.enum_values > MAX_ENUM_VALUES:
        out.append(f"{tally.enum_values} enum values in all (at most {MAX_ENUM_VALUES})")
    return out


def _types(node: dict[str, Any]) -> list[str]:
    declared = node.get("type")
    if declared is None:
        return []
    return list(declared) if isinstance(declared, list) else [declared]


def _check(
    node: Any,
    path: str,
    depth: int,
    definitions: dict[str, Any],
    tally: _Tally,
    out: list[str],
    root: bool = False,
) -> None:
    if not isinstance(node, dict):
        out.append(f"{path}: not a schema object")
        return
    if "$ref" in node:
        ref = node["$ref"]
        if set(node) != {"$ref"}:
            out.append(
                f"{path}: $ref with other keywords beside it ({', '.join(sorted(set(node) - {'$ref'}))})"
            )
        if ref != "#" and not (ref.startswith("#/$defs/") and ref.removeprefix("#/$defs/") in definitions):
            out.append(f"{path}: $ref {ref!r} points at no definition")
        return
    if "$defs" in node and not root:
        out.append(f"{path}: $defs below the root")
    types = _types(node)
    if "anyOf" in node:
        for i, branch in enumerate(node["anyOf"]):
            _check(branch, f"{path}/anyOf/{i}", depth, definitions, tally, out)
    elif not types and "enum" not in node and "const" not in node:
        out.append(f"{path}: no type")
    unknown = [t for t in types if t not in TYPES]
    if unknown:
        out.append(f"{path}: unsupported type {unknown}")
    allowed = set(STRUCTURE)
    for t in types:
        allowed |= BY_TYPE.get(t, frozenset())
    extra = sorted(set(node) - allowed)
    if extra:
        out.append(f"{path}: unsupported keywords {extra}")
    if "format" in node and node["format"] not in FORMATS:
        out.append(f"{path}: unsupported format {node['format']!r}")
    for keyword in ("enum", "const"):
        values = node.get(keyword)
        if values is None:
            continue
        values = values if keyword == "enum" else [values]
        strings = [v for v in values if isinstance(v, str)]
        tally.strings += sum(len(v) for v in strings)
        if keyword == "enum":
            tally.enum_values += len(values)
            if len(strings) > LARGE_ENUM and sum(map(len, strings)) > LARGE_ENUM_CHARS:
                out.append(f"{path}: an enum of {len(strings)} strings over {LARGE_ENUM_CHARS} characters")
    if "object" in types:
        if depth > MAX_DEPTH:
            out.append(f"{path}: nested {depth} objects deep (at most {MAX_DEPTH})")
        if node.get("additionalProperties") is not False:
            out.append(f"{path}: additionalProperties is not false")
        properties = node.get("properties", {})
        required = node.get("required", [])
        if sorted(required) != sorted(properties) or len(set(required)) != len(required):
            missing = sorted(set(properties) - set(required))
            out.append(f"{path}: not every property is required (missing {missing})")
        for name, prop in properties.items():
            tally.properties += 1
            tally.strings += len(name)
            _check(prop, f"{path}/properties/{name}", depth + 1, definitions, tally, out)
    if "array" in types:
        if "items" not in node:
            out.append(f"{path}: an array without items")
        else:
            _check(node["items"], f"{path}/items", depth, definitions, tally, out)
