"""A random value of a JSON schema (the subset pydantic writes), for the chance model."""

from __future__ import annotations

import random
from typing import Any

__all__ = ["random_instance"]


def random_instance(schema: dict[str, Any], rng: random.Random) -> Any:
    """A random value of ``schema`` (``$ref``, enums, objects, arrays, scalars).

    Args:
        schema: The JSON schema (its ``$defs`` resolve references).
        rng: Source of randomness.

    Returns:
        The value.
    """
    return _random_instance(schema, schema, rng, 0)


_MAX_DEPTH = 8


def _random_instance(
    schema: dict[str, Any], root: dict[str, Any], rng: random.Random, depth: int
) -> Any:
    """A random value of a JSON schema (the subset pydantic writes)."""
    if "$ref" in schema:
        name = str(schema["$ref"]).rsplit("/", 1)[-1]
        return _random_instance(root.get("$defs", {})[name], root, rng, depth + 1)
    if "enum" in schema:
        return rng.choice(list(schema["enum"]))
    if "const" in schema:
        return schema["const"]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = [o for o in schema[key] if o.get("type") != "null"] or schema[key]
            return _random_instance(options[0], root, rng, depth + 1)
    kind = schema.get("type", "string")
    if kind == "object":
        properties: dict[str, Any] = schema.get("properties", {})
        value = {
            name: _random_instance(sub, root, rng, depth + 1) for name, sub in properties.items()
        }
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict) and not properties and depth < _MAX_DEPTH:
            for i in range(rng.randint(1, 3)):
                value[f"demo_{i + 1}"] = _random_instance(extra, root, rng, depth + 1)
        return value
    if kind == "array":
        low = int(schema.get("minItems", 1))
        high = int(schema.get("maxItems", max(low, 3)))
        count = rng.randint(low, high) if depth < _MAX_DEPTH else low
        return [
            _random_instance(schema.get("items", {}), root, rng, depth + 1) for _ in range(count)
        ]
    if kind == "integer":
        return rng.randint(int(schema.get("minimum", 1)), int(schema.get("maximum", 5)))
    if kind == "number":
        return round(
            rng.uniform(float(schema.get("minimum", 0)), float(schema.get("maximum", 1))), 3
        )
    if kind == "boolean":
        return rng.random() < 0.5
    return f"chance-level text {rng.randint(1, 10_000)}"
