"""What a check of one model asks: its provider's kind of probe, base URL and key."""

from __future__ import annotations

import os
from typing import Literal

from inspect_ai.model import Model
from pydantic import BaseModel, ConfigDict, Field

__all__ = ["LOCAL_PROVIDERS", "ProbeKind", "ProbeTarget", "probe_target"]

ProbeKind = Literal["model_list", "openai_model", "anthropic_model", "request", "skip"]
"""How a model is checked: ``model_list`` (an OpenAI-compatible server's free
``GET /models``, the name looked up in it), ``openai_model`` (OpenAI's free
``GET /models/NAME``), ``anthropic_model`` (Anthropic's free ``GET /v1/models/NAME``),
``request`` (one minimal generation, made in the first sample so the log counts it) or
``skip`` (a model that makes no network call, or a provider we cannot check)."""

LOCAL_PROVIDERS = frozenset({"mockllm", "none", "plural", "hf", "transformer_lens", "nnterp"})
"""Providers answered in this process (no network): never checked."""

OPENAI_URL = "https://api.openai.com/v1"
ANTHROPIC_URL = "https://api.anthropic.com"


class ProbeTarget(BaseModel):
    """One model to check, and how.

    Attributes:
        model: The model as Inspect names it (``openai-api/local/smollm2``).
        name: The provider's name of the model (``smollm2``).
        kind: How it is checked (:data:`ProbeKind`).
        base_url: The URL its calls go to (None where the provider's SDK decides).
        base_url_var: The environment variable that sets the base URL.
        key_var: The environment variable that holds its API key.
        api_key: The key (never printed, never stored in a log).
        reason: Why it is skipped, for ``skip``.

    """

    model_config = ConfigDict(frozen=True)

    model: str
    name: str
    kind: ProbeKind
    base_url: str | None = None
    base_url_var: str | None = None
    key_var: str | None = None
    api_key: str | None = Field(default=None, repr=False, exclude=True)
    reason: str = ""

    @property
    def identity(self) -> tuple[str, str, str, int]:
        """What makes two checks the same check (the key only as a hash)."""
        return (self.model, self.base_url or "", self.kind, hash(self.api_key))


def _first_key_var(model: Model) -> str | None:
    names = list(model.api.api_key_vars or [])
    present = [n for n in names if os.environ.get(n)]
    chosen = present or names
    return chosen[0] if chosen else None


def _says(api: object, question: str) -> bool:
    """``api.is_azure()`` and the like, False where the provider has no such method."""
    method = getattr(api, question, None)
    return bool(method()) if callable(method) else False


def probe_target(model: Model) -> ProbeTarget:
    """How to check ``model``: the cheapest request its provider allows, or none.

    Providers are told apart by their registry name and by the methods Inspect's provider
    classes have (no private import): ``openai``, ``anthropic``, and any provider with a
    ``service`` and ``service_model_name()`` (Inspect's OpenAI-compatible base class).

    Args:
        model: A model resolved by Inspect (its key and base URL already read).

    Returns:
        The target: a free probe for OpenAI-compatible servers, OpenAI and Anthropic;
        one minimal request for Inspect's other remote providers; ``skip`` for models
        answered in this process and for providers from other packages (unknown
        transport).
    """
    api = model.api
    provider = str(model).split("/", 1)[0]
    module = type(api).__module__
    base = dict(model=str(model), name=api.model_name, api_key=api.api_key)
    if provider in LOCAL_PROVIDERS:
        return ProbeTarget(**base, kind="skip", reason="answered in this process")
    if not module.startswith("inspect_ai.model._providers."):
        return ProbeTarget(**base, kind="skip", reason=f"provider {provider!r} from {module}")
    key_var = _first_key_var(model)
    if provider == "openai" and not (_says(api, "is_azure") or _says(api, "is_bedrock")):
        url = api.base_url or os.environ.get("OPENAI_BASE_URL") or OPENAI_URL
        kind: ProbeKind = "openai_model" if url.rstrip("/") == OPENAI_URL else "model_list"
        return ProbeTarget(
            **base,
            kind=kind,
            base_url=url.rstrip("/"),
            base_url_var="OPENAI_BASE_URL",
            key_var="OPENAI_API_KEY",
        )
    if provider == "anthropic" and not any(
        _says(api, q) for q in ("is_bedrock", "is_vertex", "is_azure")
    ):
        url = api.base_url or os.environ.get("ANTHROPIC_BASE_URL") or ANTHROPIC_URL
        return ProbeTarget(
            **base,
            kind="anthropic_model",
            base_url=url.rstrip("/"),
            base_url_var="ANTHROPIC_BASE_URL",
            key_var="ANTHROPIC_API_KEY",
        )
    service = getattr(api, "service", None)
    service_name = getattr(api, "service_model_name", None)
    if isinstance(service, str) and callable(service_name):  # OpenAI-compatible
        if not api.base_url:
            # vLLM and SGLang start their own server on the first call
            return ProbeTarget(**base, kind="skip", reason="the provider starts its own server")
        variable = service.upper().replace("-", "_")
        return ProbeTarget(
            **{**base, "name": str(service_name())},
            kind="model_list",
            base_url=api.base_url.rstrip("/"),
            base_url_var=f"{variable}_BASE_URL",
            key_var=key_var,
        )
    return ProbeTarget(**base, kind="request", base_url=api.base_url, key_var=key_var)
