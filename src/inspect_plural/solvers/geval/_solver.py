"""G-Eval: chain-of-thought form filling, one prompt per dimension (a MAJ-Eval baseline).

Each dimension (``overall`` included) gets its own prompt: the task, the dimension's
criterion, fixed evaluation steps, the context and the content, and an evaluation form
to fill with the score alone. The dimensions run concurrently. The score is obtained in
one of two ways, and the record says which:

- *logprobs*: one call with ``logprobs=True`` and ``max_tokens=5`` at temperature 0. The
  answer must open with a score from 1 to 5; the score is then the probability-weighted
  mean over the top log-probabilities at the emitted token that is that score: tokens
  that are, stripped of spaces, an integer from 1 to 5 are kept, those below
  probability 0.01 dropped, tokens of the same integer merged, and the score is
  Σ v·p / Σ p (the DeepEval variant of the paper's formula). When no top token
  qualifies, the score written in the answer is used. An answer that opens with no
  score is a failure, whatever its first token's top log-probabilities hold.
- *sampling*: ``n`` samples at ``temperature`` (one call with ``num_choices=n``, topped
  up with seeded single calls when the provider returns fewer choices). The score is
  the mean of the samples that parse; unparsed ones are excluded and counted. With
  ``official=True`` they count as 0 and the temperature is 2, as in the official code
  (``gpt4_eval.py``: ``n=20``, ``temperature=2``, ``max_tokens=5``).

``mode="auto"`` tries logprobs and, when the provider returns none for a call, samples
that dimension instead (the logprob call still counts as a call).

The prompt and the scoring rules are in :mod:`inspect_plural.solvers.geval._scores`, the
records in :mod:`inspect_plural.solvers.geval._records`; their public names are
importable from here.
"""

from __future__ import annotations

from typing import Literal

from inspect_ai.model import ChatMessage, GenerateConfig, Model, ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import span

from inspect_plural._concurrency import gather, named
from inspect_plural._replies import generate_reply, reply_error
from inspect_plural.answer_screen import screen_answer
from inspect_plural.models import role_model
from inspect_plural.parsing import FailureReason
from inspect_plural.prediction import ModelAnswer
from inspect_plural.prompts import load_template
from inspect_plural.records import RatedSampleMetadata, RatingDimension
from inspect_plural.solvers._ratings import (
    SCORE_HIGH,
    SCORE_LOW,
    tokens_of,
    write_rating_prediction,
)
from inspect_plural.solvers.geval._records import (
    DEFAULT_TEMPERATURE,
    GEvalDimension,
    GEvalRecord,
    TokenProbability,
)
from inspect_plural.solvers.geval._scores import (
    GEVAL,
    GEVAL_FIELDS,
    GEVAL_REQUIRED,
    MIN_PROBABILITY,
    LogprobReading,
    geval_example,
    geval_message,
    geval_prompt,
    read_logprob_score,
    sample_mean_score,
    weighted_score,
)

__all__ = [
    "DEFAULT_TEMPERATURE",
    "GEVAL_MODES",
    "MIN_PROBABILITY",
    "GEvalDimension",
    "GEvalRecord",
    "LogprobReading",
    "TokenProbability",
    "geval",
    "geval_prompt",
    "read_logprob_score",
    "sample_mean_score",
    "weighted_score",
]

GEvalMode = Literal["auto", "logprobs", "sampling"]
GEVAL_MODES: tuple[GEvalMode, ...] = ("auto", "logprobs", "sampling")
"""Values of the ``mode`` option."""

MAX_TOKENS = 5
"""Completion length of every call (the official code's ``max_tokens``)."""
OFFICIAL_TEMPERATURE = 2.0
"""Sampling temperature of the official code."""
LOGPROBS_TEMPERATURE = 0.0
"""Temperature of logprob calls: the answer is then the most likely score token."""


def _failure(texts: list[str], message: ChatMessage) -> FailureReason:
    """Why no answer held a score: ``echo`` when they repeat the prompt, else ``no_answer``."""
    echoed = bool(texts) and all(screen_answer(t, [message]) is not None for t in texts)
    return "echo" if echoed else "no_answer"


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
        model: Model, message: ChatMessage, base_seed: int | None, record: GEvalDimension
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

        first = config(0, n if n > 1 else None)
        output = await generate_reply(model, [message], first)
        record.model_calls += 1
        record.tokens += tokens_of(output)
        texts = [choice.message.text for choice in output.choices][:n]
        if len(texts) < n:
            topped = await gather(
                *(generate_reply(model, [message], config(i, None)) for i in range(len(texts), n))
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
            record.failure = _failure(texts, message)

    async def score_dimension(
        model: Model,
        metadata: RatedSampleMetadata,
        dimension: RatingDimension,
        base_seed: int | None,
    ) -> GEvalDimension:
        message = geval_message(
            geval_prompt(metadata, dimension, prompts), geval_example(metadata, dimension)
        )
        record = GEvalDimension(
            name=dimension.name, mode="sampling" if run_mode == "sampling" else "logprobs"
        )
        async with span(f"geval {dimension.name}"):
            if run_mode == "sampling":
                await sample(model, message, base_seed, record)
                return record
            output = await generate_reply(
                model,
                [message],
                GenerateConfig(
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
            failed = reply_error(output)
            if failed is not None:
                record.error = failed
                record.failure = "no_answer"
                return record
            if not _has_logprobs(output):
                if run_mode == "auto":
                    record.switched = True
                    await sample(model, message, base_seed, record)
                else:
                    record.error = "the provider returned no logprobs"
                return record
            logprobs = output.choices[0].logprobs
            assert logprobs is not None
            reading: LogprobReading = read_logprob_score(output.completion, logprobs)
            record.top_logprobs = [TokenProbability(token=t, probability=p) for t, p in reading.top]
            record.score_probabilities = {str(v): p for v, p in sorted(reading.merged.items())}
            record.raw_fallback = reading.raw_fallback
            record.error = reading.error
            record.score = reading.score
            if reading.score is None:
                record.failure = _failure([output.completion], message)
            return record

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        metadata = state.metadata_as(RatedSampleMetadata)
        model = role_model("judge")
        base_seed = None if seed is None else seed + (state.epoch - 1) * n
        records = await gather(
            *(
                named(f"dimension {d.name}", score_dimension(model, metadata, d, base_seed))
                for d in metadata.dimensions
            )
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
                read_as="text" if r.score is not None else None,
                failure=r.failure,
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
