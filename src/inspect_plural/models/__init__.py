"""The offline chance-level model API (``--model plural/random``)."""

from inspect_plural.models._random import RandomModelAPI, plural

__all__ = ["RandomModelAPI", "plural"]
