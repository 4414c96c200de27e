"""What G-Eval records per sample: how each dimension was scored, with its evidence."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from inspect_plural.parsing import FailureReason
from inspect_plural.prediction import StoredRecord

__all__ = ["DEFAULT_TEMPERATURE", "GEvalDimension", "GEvalRecord", "TokenProbability"]

DEFAULT_TEMPERATURE = 1.0
"""Sampling temperature by default (Anthropic rejects the official 2)."""


class TokenProbability(BaseModel):
    """One of the top tokens at the score position, with its probability.

    Attributes:
        token: The token text as the provider returned it.
        probability: exp(logprob).

    """

    token: str
    probability: float


class GEvalDimension(BaseModel):
    """How one dimension was scored.

    Attributes:
        name: The dimension's key.
        mode: The mode used: ``logprobs`` or ``sampling``.
        switched: True when ``auto`` fell back to sampling because the provider returned
            no logprobs.
        temperature: Temperature of the calls that gave the score.
        score: The score (None when it could not be obtained).
        error: Why there is no score.
        failure: Its reason code (``echo`` when the answers repeat the prompt, else
            ``no_answer``; None when scored).
        completion: The logprob call's answer text (logprobs mode, and before a switch).
        top_logprobs: The top tokens at the score position: the emitted token that is
            the answer's score (logprobs mode; empty when the answer holds no score).
        score_probabilities: Probability per score value kept by the weighting.
        raw_fallback: True when no top token was a score and the answer's own score was
            used instead of the weighting.
        n_requested: Samples asked for (sampling mode).
        n_obtained: Samples returned.
        n_parsed: Samples with a score from 1 to 5.
        samples: The samples' texts.
        sample_scores: Each sample's score (None: unparsed).
        model_calls: Calls made for this dimension.
        tokens: Input plus output tokens of those calls.

    """

    name: str
    mode: Literal["logprobs", "sampling"]
    switched: bool = False
    temperature: float | None = None
    score: float | None = None
    error: str | None = None
    failure: FailureReason | None = None
    completion: str | None = None
    top_logprobs: list[TokenProbability] = Field(default_factory=list)
    score_probabilities: dict[str, float] = Field(default_factory=dict)
    raw_fallback: bool = False
    n_requested: int = 0
    n_obtained: int = 0
    n_parsed: int = 0
    samples: list[str] = Field(default_factory=list)
    sample_scores: list[float | None] = Field(default_factory=list)
    model_calls: int = 0
    tokens: int = 0


class GEvalRecord(StoredRecord):
    """G-Eval's per-dimension evidence for one sample, kept in the sample store.

    Attributes:
        mode: The configured mode (``auto``, ``logprobs`` or ``sampling``).
        official: Whether the official code's rules were used (unparsed = 0, T=2).
        n: Samples per dimension in sampling mode.
        temperature: Sampling temperature.
        top_logprobs: Top log-probabilities asked for in logprobs mode.
        dimensions: One entry per dimension, in the task's order.
        model_calls: Calls made for this sample.
        tokens: Input plus output tokens of those calls.

    """

    mode: str = Field(default="auto")
    official: bool = Field(default=False)
    n: int = Field(default=20)
    temperature: float = Field(default=DEFAULT_TEMPERATURE)
    top_logprobs: int = Field(default=20)
    dimensions: list[GEvalDimension] = Field(default_factory=list)
    model_calls: int = Field(default=0)
    tokens: int = Field(default=0)
