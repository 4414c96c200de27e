"""G-Eval: chain-of-thought form filling, one prompt per dimension (a MAJ-Eval baseline).

Each dimension (``overall`` included) gets its own prompt: the task, the dimension's
criterion, fixed evaluation steps, the context and the content, and an evaluation form
to fill with the score alone. The dimensions run concurrently. The score is obtained in
one of two ways, and the record says which:

- *logprobs*: one call with ``logprobs=True`` and ``max_tokens=5`` at temperature 0. The
  score is the probability-weighted mean over the top log-probabilities of the answer's
  score token: tokens that are, stripped of spaces, an integer from 1 to 5 are kept,
  those below probability 0.01 dropped, tokens of the same integer merged, and the
  score is Σ v·p / Σ p (the DeepEval variant of the paper's formula). When no token
  qualifies, the score written in the answer is used.
- *sampling*: ``n`` samples at ``temperature`` (one call with ``num_choices=n``, topped
  up with seeded single calls when the provider returns fewer choices). The score is
  the mean of the samples that parse; unparsed ones are excluded and counted. With
  ``official=True`` they count as 0 and the temperature is 2, as in the official code
  (``gpt4_eval.py``: ``n=20``, ``temperature=2``, ``max_tokens=5``).

``mode="auto"`` tries logprobs and, when the provider returns none for a call, samples
that dimension instead (the logprob call still counts as a call).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

from inspect_ai.model import (
    ChatMessage,
    ChatMessageUser,
    GenerateConfig,
    Logprob,
    Logprobs,
    Model,
    ModelOutput,
    get_model,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import collect, span
from pydantic import BaseModel, Field

from inspect_plural.answer_format import NumberFormat, declare_answer_format
from inspect_plural.prediction import ModelAnswer, StoredRecord
from inspect_plural.prompts import load_template
from inspect_plural.rating_parsing import parse_bare_score
from inspect_plural.records import RatedSampleMetadata, RatingDimension
from inspect_plural.solvers._ratings import (
    SCORE_HIGH,
    SCORE_LOW,
    render_dimensions,
    render_rated,
    tokens_of,
    write_rating_prediction,
)

__all__ = [
    "GEVAL_MODES",
    "GEvalDimension",
    "GEvalRecord",
    "TokenProbability",
    "geval",
    "geval_prompt",
    "sample_mean_score",
    "weighted_score",
]

GEVAL = "geval.txt"
GEVAL_FIELDS = {"task_description", "criterion", "title", "rated", "content_label", "context_label"}
GEVAL_REQUIRED = {"criterion", "title", "rated"}

GEvalMode = Literal["auto", "logprobs", "sampling"]
GEVAL_MODES: tuple[GEvalMode, ...] = ("auto", "logprobs", "sampling")
"""Values of the ``mode`` option."""

MIN_PROBABILITY = 0.01
"""Score tokens less likely than this are dropped from the weighting (DeepEval)."""
MAX_TOKENS = 5
"""Completion length of every call (the official code's ``max_tokens``)."""
DEFAULT_TEMPERATURE = 1.0
"""Sampling temperature by default (Anthropic rejects the official 2)."""
OFFICIAL_TEMPERATURE = 2.0
"""Sampling temperature of the official code."""
LOGPROBS_TEMPERATURE = 0.0
"""Temperature of logprob calls: the answer is then the most likely score token."""


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
        completion: The logprob call's answer text (logprobs mode, and before a switch).
        top_logprobs: The top tokens at the score position (logprobs mode).
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


def _score_value(token: str, low: int, high: int) -> int | None:
    """The integer a token stands for when it is a score from low to high (spaces stripped)."""
    text = token.strip()
    if not text.isdecimal() or not text.isascii():
        return None
    try:
        value = int(text)
    except ValueError:  # more digits than Python converts (4,300): no score
        return None
    return value if low <= value <= high else None


def weighted_score(
    top: Sequence[tuple[str, float]],
    low: int = SCORE_LOW,
    high: int = SCORE_HIGH,
    min_probability: float = MIN_PROBABILITY,
) -> tuple[float | None, dict[int, float]]:
    """The probability-weighted score over the top tokens at the score position.

    Tokens that are not an integer from ``low`` to ``high`` once stripped of spaces are
    dropped, as are tokens with probability below ``min_probability``; tokens of the
    same integer (``"4"`` and ``" 4"``) are merged. The probabilities are not assumed to
    sum to 1: the score is Σ v·p / Σ p over what is kept.

    Args:
        top: (token, probability) pairs.
        low: The lowest score.
        high: The highest score.
        min_probability: The probability below which a token is dropped.

    Returns:
        The score (None when no token qualifies) and the merged probability per value.

    Examples:
        >>> top = [("3", 0.5), ("4", 0.3), (" 4", 0.1), ("x", 0.05), ("5", 0.005)]
        >>> round(weighted_score(top)[0], 4)  # (0.5 * 3 + 0.4 * 4) / 0.9
        3.4444
    """
    merged: dict[int, float] = {}
    for token, probability in top:
        value = _score_value(token, low, high)
        if value is None or probability < min_probability:
            continue
        merged[value] = merged.get(value, 0.0) + probability
    total = sum(merged.values())
    if total <= 0:
        return None, merged
    score = sum(v * p for v, p in merged.items()) / total
    return min(max(score, float(low)), float(high)), merged  # rounding stays in the scale


def sample_mean_score(
    texts: Sequence[str], official: bool = False, low: int = SCORE_LOW, high: int = SCORE_HIGH
) -> tuple[float | None, list[float | None]]:
    """The mean score of sampled form-filling answers.

    Args:
        texts: The samples' texts.
        official: Count an unparsed sample as 0 (the official code) instead of
            excluding it.
        low: The lowest score.
        high: The highest score.

    Returns:
        The score (None when nothing could be averaged) and each sample's parsed score.

    Examples:
        >>> sample_mean_score(["3", "4", "x"])[0]
        3.5
    """
    parsed = [parse_bare_score(text, low, high) for text in texts]
    if official:
        values = [0.0 if value is None else value for value in parsed]
    else:
        values = [value for value in parsed if value is not None]
    if not values:
        return None, parsed
    return sum(values) / len(values), parsed


def _score_token(logprobs: Logprobs) -> Logprob:
    """The answer token holding the score: the first that is one, else the first token."""
    for token in logprobs.content:
        if _score_value(token.token, SCORE_LOW, SCORE_HIGH) is not None:
            return token
    return logprobs.content[0]


def _criterion(dimension: RatingDimension, dimensions: Sequence[RatingDimension]) -> str:
    """The dimension's criterion; ``overall`` also lists the dimensions it sums up."""
    text = f"{dimension.title}: {dimension.description}"
    others = [d for d in dimensions if d.name != dimension.name]
    if dimension.name == "overall" and others:
        text += "\n\nThe overall score should reflect all of these dimensions:\n"
        text += render_dimensions(others)
    return text


def geval_prompt(
    metadata: RatedSampleMetadata, dimension: RatingDimension, prompts: str | None = None
) -> str:
    """The form-filling prompt of one dimension.

    Args:
        metadata: The sample's metadata.
        dimension: The dimension to score.
        prompts: Folder of replacement prompt templates.

    Returns:
        The prompt text.
    """
    template = load_template(GEVAL, GEVAL_FIELDS, GEVAL_REQUIRED, prompts)
    return template.format(
        task_description=metadata.task_description.strip(),
        criterion=_criterion(dimension, metadata.dimensions),
        title=dimension.title,
        rated=render_rated(metadata),
        content_label=metadata.content_label,
        context_label=metadata.context_label,
    )


def _message(prompt: str) -> ChatMessage:
    """A fresh prompt message declaring the bare-score answer format."""
    return declare_answer_format(
        ChatMessageUser(content=prompt), NumberFormat(low=SCORE_LOW, high=SCORE_HIGH)
    )


def _has_logprobs(output: ModelOutput) -> bool:
    if not output.choices:
        return False
    logprobs = output.choices[0].logprobs
    return logprobs is not None and bool(logprobs.content)


@solver
def geval(
    mode: str = "auto",
    n: int = 20,
    temperature: float | None = None,
    top_logprobs: int = 20,
    official: bool = False,
    prompts: str | None = None,
    seed: int | None = 42,
) -> Solver:
    """G-Eval: one form-filling prompt per dimension, scored from logprobs or samples.

    Model role: ``judge`` (defaults to the evaluated model).

    Args:
        mode: ``auto`` (logprobs, sampling for a call whose provider returns none),
            ``logprobs`` (no fallback: a call without logprobs is a failure) or
            ``sampling``.
        n: Samples per dimension in sampling mode.
        temperature: Sampling temperature (None: 1.0, or 2.0 with ``official``).
            Logprob calls run at temperature 0.
        top_logprobs: Top log-probabilities asked for per token in logprobs mode.
        official: Follow the official code: sampling only (``auto`` becomes
            ``sampling``), temperature 2 unless given, unparsed samples count as 0.
        prompts: Folder of replacement prompt templates (``geval.txt``).
        seed: Generation seed (sample i of a top-up uses ``seed + i``; epoch e shifts
            every seed by ``(e - 1) * n``; None: unseeded).

    Returns:
        A solver that writes a :class:`GEvalRecord` and a
        :class:`~inspect_plural.prediction.Prediction` with a score per dimension.

    Raises:
        ValueError: An unknown mode, ``n`` or ``top_logprobs`` below 1, or
            ``official`` with ``mode="logprobs"``.
    """
    if mode not in GEVAL_MODES:
        raise ValueError(f"geval mode must be one of {list(GEVAL_MODES)}, not {mode!r}")
    if n < 1 or top_logprobs < 1:
        raise ValueError("geval needs n >= 1 and top_logprobs >= 1")
    if official and mode == "logprobs":
        raise ValueError("geval official=true samples (the official code uses no logprobs)")
    run_mode: GEvalMode = "sampling" if official else mode
    sampling_temperature = (
        temperature
        if temperature is not None
        else (OFFICIAL_TEMPERATURE if official else DEFAULT_TEMPERATURE)
    )
    load_template(GEVAL, GEVAL_FIELDS, GEVAL_REQUIRED, prompts)  # check it now
    method = "geval/official" if official else "geval"

    async def sample(
        model: Model, prompt: str, base_seed: int | None, record: GEvalDimension
    ) -> None:
        record.mode = "sampling"
        record.temperature = sampling_temperature
        record.n_requested = n

        def config(i: int, choices: int | None) -> GenerateConfig:
            return GenerateConfig(
                temperature=sampling_temperature,
                max_tokens=MAX_TOKENS,
                num_choices=choices,
                seed=None if base_seed is None else base_seed + i,
            )

        output = await model.generate([_message(prompt)], config=config(0, n if n > 1 else None))
        record.model_calls += 1
        record.tokens += tokens_of(output)
        texts = [choice.message.text for choice in output.choices][:n]
        if len(texts) < n:
            topped = await collect(
                *(
                    model.generate([_message(prompt)], config=config(i, None))
                    for i in range(len(texts), n)
                )
            )
            record.model_calls += len(topped)
            for extra in topped:
                record.tokens += tokens_of(extra)
                if extra.choices:
                    texts.append(extra.choices[0].message.text)
        record.samples = texts
        record.n_obtained = len(texts)
        score, parsed = sample_mean_score(texts, official)
        record.sample_scores = parsed
        record.n_parsed = sum(value is not None for value in parsed)
        record.score = score
        if score is None:
            record.error = (
                "no sample returned"
                if not texts
                else f"none of the {len(texts)} samples is a score from {SCORE_LOW} to {SCORE_HIGH}"
            )

    async def score_dimension(
        model: Model,
        metadata: RatedSampleMetadata,
        dimension: RatingDimension,
        base_seed: int | None,
    ) -> GEvalDimension:
        prompt = geval_prompt(metadata, dimension, prompts)
        record = GEvalDimension(
            name=dimension.name, mode="sampling" if run_mode == "sampling" else "logprobs"
        )
        async with span(f"geval {dimension.name}"):
            if run_mode == "sampling":
                await sample(model, prompt, base_seed, record)
                return record
            output = await model.generate(
                [_message(prompt)],
                config=GenerateConfig(
                    temperature=LOGPROBS_TEMPERATURE,
                    max_tokens=MAX_TOKENS,
                    logprobs=True,
                    top_logprobs=top_logprobs,
                    seed=base_seed,
                ),
            )
            record.model_calls += 1
            record.tokens += tokens_of(output)
            record.completion = output.completion
            record.temperature = LOGPROBS_TEMPERATURE
            if not _has_logprobs(output):
                if run_mode == "auto":
                    record.switched = True
                    await sample(model, prompt, base_seed, record)
                else:
                    record.error = "the provider returned no logprobs"
                return record
            logprobs = output.choices[0].logprobs
            assert logprobs is not None
            token = _score_token(logprobs)
            top = [(t.token, math.exp(t.logprob)) for t in token.top_logprobs or []]
            if not top:  # only the emitted token's own logprob came back
                top = [(token.token, math.exp(token.logprob))]
            record.top_logprobs = [TokenProbability(token=t, probability=p) for t, p in top]
            score, merged = weighted_score(top)
            record.score_probabilities = {str(v): p for v, p in sorted(merged.items())}
            if score is None:
                score = parse_bare_score(output.completion, SCORE_LOW, SCORE_HIGH)
                record.raw_fallback = score is not None
                if score is None:
                    record.error = (
                        f"no score from {SCORE_LOW} to {SCORE_HIGH} among the top tokens "
                        f"or in the answer {output.completion!r}"
                    )
            record.score = score
            return record

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        metadata = state.metadata_as(RatedSampleMetadata)
        model = get_model(role="judge")
        base_seed = None if seed is None else seed + (state.epoch - 1) * n
        records = await collect(
            *(score_dimension(model, metadata, d, base_seed) for d in metadata.dimensions)
        )
        calls = sum(r.model_calls for r in records)
        tokens = sum(r.tokens for r in records)
        GEvalRecord.detached(
            mode=mode,
            official=official,
            n=n,
            temperature=sampling_temperature,
            top_logprobs=top_logprobs,
            dimensions=records,
            model_calls=calls,
            tokens=tokens,
        ).write_to(state.store)
        answers = [
            ModelAnswer(
                raw=(r.completion or "") if r.mode == "logprobs" else "\n".join(r.samples),
                parse_ok=r.score is not None,
                error=None if r.score is not None else f"{r.name}: {r.error}",
                scores={r.name: r.score} if r.score is not None else None,
            )
            for r in records
        ]
        used = {r.mode for r in records}
        aggregate = (
            "logprob_weighted"
            if used == {"logprobs"}
            else "sample_mean"
            if used == {"sampling"}
            else "logprob_weighted+sample_mean"
        )
        write_rating_prediction(
            state.store,
            method,
            metadata.dimensions,
            {r.name: r.score for r in records if r.score is not None},
            model_calls=calls,
            tokens=tokens,
            answers=answers,
            aggregate=aggregate,
        )
        return state

    return solve
