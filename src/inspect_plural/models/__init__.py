"""The offline chance-level model API (``--model plural/random``) and model-role resolution."""

from inspect_plural.models._random import RandomModelAPI, plural
from inspect_plural.models._roles import role_model

__all__ = ["RandomModelAPI", "plural", "role_model"]
