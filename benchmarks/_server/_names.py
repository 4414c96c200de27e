"""The benchmark service's names: its model, the environment it sets, the request field."""

from __future__ import annotations

from inspect_plural.answer_format import ANSWER_FORMAT_KEY

__all__ = ["API_KEY_VAR", "BASE_URL_VAR", "DUMMY_KEY", "FORMAT_FIELD", "MODEL", "SERVICE"]


SERVICE = "plural-bench"


MODEL = f"openai-api/{SERVICE}/random"


API_KEY_VAR = "PLURAL_BENCH_API_KEY"


BASE_URL_VAR = "PLURAL_BENCH_BASE_URL"


DUMMY_KEY = "plural-bench-local-no-secret"


FORMAT_FIELD = ANSWER_FORMAT_KEY
"""Request body field carrying the declared answer format (the package's metadata key)."""
