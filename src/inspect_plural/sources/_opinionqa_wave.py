"""One OpinionQA wave folder read into records: questions, answers, traits, survey weights.

``American_Trends_Panel_W{N}/`` holds ``info.csv`` (the questions), ``responses.csv``
(one row per respondent: ``QKEY``, an answer column per question, the 12 attributes of
:data:`OPINIONQA_TRAITS` and the survey weight ``WEIGHT_W{N}``) and optionally
``metadata.csv`` (the attributes' options). See :mod:`inspect_plural.sources.opinionqa`.

Survey weights: ``WEIGHT_W{N}`` is Pew's weight of the respondent in wave ``N``; the
official representativeness code sums these weights per option to form a group's answer
distribution. A respondent's weight is kept as their annotator weight
(:attr:`AnnotatedCorpus.annotator_weights`); without the column every weight is 1, and a
blank cell gives 1 too (counted and logged). A weight that is not a finite number >= 0 is
an error naming its row.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from inspect_plural.records import Annotator, Item, LabelScale
from inspect_plural.sources._dedupe import kept_rows
from inspect_plural.sources._once import data_logger
from inspect_plural.sources._paths import DataRowError
from inspect_plural.sources._read import read_csv_file, require_columns

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "OPINIONQA_REFUSED",
    "OPINIONQA_TRAITS",
    "UNKNOWN_TRAIT",
    "WEIGHT_COLUMN",
    "OpinionQAWave",
    "read_opinionqa_wave",
]

logger = data_logger(__name__)

OPINIONQA_TRAITS = (
    "CREGION",
    "AGE",
    "SEX",
    "EDUCATION",
    "CITIZEN",
    "MARITAL",
    "RELIG",
    "RELIGATTEND",
    "POLPARTY",
    "INCOME",
    "POLIDEOLOGY",
    "RACE",
)
"""The 12 demographic attributes (``helpers.DEMOGRAPHIC_ATTRIBUTES`` without ``Overall``)."""

OPINIONQA_REFUSED = "Refused"
"""The refusal option: not a judgment."""

UNKNOWN_TRAIT = "UNK"
"""Trait value for a refused, missing or out-of-vocabulary attribute."""


RESPONDENT_COLUMN = "QKEY"
INFO_COLUMNS = ("key", "question", "option_mapping", "references", "option_ordinal")
INFO_EXPECTED = "an OpinionQA wave's info.csv, one row per question"
RESPONSES_EXPECTED = "an OpinionQA wave's responses.csv, one row per respondent"
QUESTION_DESCRIPTION = (
    "Which of the answer options did this survey respondent choose for the question?"
)


WEIGHT_COLUMN = "WEIGHT_W{wave}"
"""The survey-weight column of wave ``N`` in ``responses.csv``."""


class OpinionQAWave(NamedTuple):
    """The records of one wave (a tuple: unpacks as before, weights last).

    Attributes:
        judgments: ``annotator_id``, ``item_id``, ``label`` in respondent order.
        annotators: The respondents who answered at least one question.
        items: The questions.
        scales: Each question's scale.
        refused: How many ``Refused`` answers were dropped.
        weights: Respondent (annotator id) -> survey weight; empty without the column.

    """

    judgments: pd.DataFrame
    annotators: dict[str, Annotator]
    items: dict[str, Item]
    scales: dict[str, LabelScale]
    refused: int
    weights: dict[str, float]


def _read_weights(
    responses: pd.DataFrame, annotator_ids: pd.Series, wave: int, path: Path
) -> dict[str, float]:
    """Respondent -> ``WEIGHT_W{wave}`` (blank: 1.0, logged); empty without the column."""
    import pandas as pd

    column = WEIGHT_COLUMN.format(wave=wave)
    if column not in responses.columns:
        return {}
    text = responses[column].fillna("").astype(str).str.strip()
    values = pd.to_numeric(text.where(text != ""), errors="coerce")
    bad = (text != "") & (values.isna() | ~values.between(0, float("inf")))
    bad |= values.isin([float("inf")])
    if bad.any():
        row = int(bad.to_numpy().argmax())
        raise DataRowError(path, row, column, f"{text.iloc[row]!r} is not a weight >= 0")
    blank = int((text == "").sum())
    if blank:
        logger.warning("%s: %d blank %s value(s) read as weight 1", path, blank, column)
    weights = values.fillna(1.0).astype(float)
    return dict(zip(annotator_ids.tolist(), weights.tolist()))


def _literal(path: Path, row: int, field: str, text: object) -> Any:
    if not isinstance(text, str) or not text.strip():
        raise DataRowError(path, row, field, "empty")
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError) as ex:
        raise DataRowError(path, row, field, f"not a Python literal ({ex})") from None


def _question_scale(path: Path, row: int, references: Any, ordinal: Any) -> LabelScale:
    """The scale of one question: its options without ``Refused``."""
    if not isinstance(references, list) or not all(isinstance(r, str) for r in references):
        raise DataRowError(path, row, "references", "expected a list of option strings")
    options = [r.strip() for r in references if r.strip() != OPINIONQA_REFUSED]
    if len(options) < 2 or len(set(options)) != len(options):
        raise DataRowError(
            path, row, "references", f"needs at least two distinct options, got {options}"
        )
    if not isinstance(ordinal, list | tuple):
        raise DataRowError(path, row, "option_ordinal", "expected a list of numbers")
    numbers = [float(v) for v in ordinal if isinstance(v, int | float) and not isinstance(v, bool)]
    complete = len(numbers) == len(ordinal) == len(options)
    increasing = complete and all(a < b for a, b in zip(numbers, numbers[1:]))
    return LabelScale(
        kind="ordinal" if increasing else "nominal",
        labels=options,
        description=QUESTION_DESCRIPTION,
        # Santurkar et al. measure distances on these values, even when they are not
        # increasing ([1, 2, 1.5]); all equal ([1, 1, 1]) marks a categorical question
        ordinal_values=numbers if complete and len(set(numbers)) > 1 else None,
    )


def _read_info(path: Path) -> tuple[dict[str, Item], dict[str, LabelScale]]:
    info = read_csv_file(path, INFO_EXPECTED, dtype=str, keep_default_na=False)
    require_columns(info.columns, INFO_COLUMNS, path, INFO_EXPECTED)
    items: dict[str, Item] = {}
    scales: dict[str, LabelScale] = {}
    rows = zip(info["key"], info["question"], info["option_mapping"], info["references"])
    for row, (key, question, mapping, references) in enumerate(rows):
        key = key.strip()
        if not key:
            raise DataRowError(path, row, "key", "empty question key")
        if key in items:
            raise DataRowError(path, row, "key", f"question key {key!r} repeats")
        if not question.strip():
            raise DataRowError(path, row, "question", f"question {key!r} has no text")
        if not isinstance(_literal(path, row, "option_mapping", mapping), dict):
            raise DataRowError(path, row, "option_mapping", "expected a dict literal")
        scales[key] = _question_scale(
            path,
            row,
            _literal(path, row, "references", references),
            _literal(path, row, "option_ordinal", info["option_ordinal"].iloc[row]),
        )
        items[key] = Item(id=key, text=question.strip())
    return items, scales


def _read_trait_options(path: Path) -> dict[str, set[str]]:
    """Attribute -> its options, from ``metadata.csv`` (empty when the file is absent)."""
    if not path.is_file():
        return {}
    expected = "an OpinionQA wave's metadata.csv, one row per respondent attribute"
    meta = read_csv_file(path, expected, dtype=str, keep_default_na=False)
    require_columns(meta.columns, ("key", "options"), path, expected)
    options: dict[str, set[str]] = {}
    for row, (key, text) in enumerate(zip(meta["key"], meta["options"])):
        values = _literal(path, row, "options", text)
        if not isinstance(values, list | tuple):
            raise DataRowError(path, row, "options", "expected a list literal")
        options[key.strip()] = {str(v).strip() for v in values}
    return options


TRUNCATION_MIN = 40
"""Shortest option string treated as possibly truncated when matching answers by prefix."""


def _truncated_match(answer: str, options: list[str]) -> int | None:
    """The index of the one option that is a long prefix of the answer (or vice versa)."""
    hits = [
        i
        for i, option in enumerate(options)
        if min(len(option), len(answer)) >= TRUNCATION_MIN
        and (answer.startswith(option) or option.startswith(answer))
    ]
    return hits[0] if len(hits) == 1 else None


def read_opinionqa_wave(folder: Path, wave: int) -> OpinionQAWave:
    """Read one ``American_Trends_Panel_W{N}`` folder.

    Args:
        folder: The wave folder.
        wave: The wave number ``N``.

    Returns:
        The judgments (``annotator_id``, ``item_id``, ``label``, in respondent order), the
        respondents who answered at least one question, the questions, their scales, how
        many ``Refused`` answers were dropped, and the respondents' survey weights.

    Raises:
        DataFileError: A file cannot be read, or a required column is missing.
        DataRowError: A malformed question, or an answer that is not one of its options.

    """
    import pandas as pd

    info_path, responses_path = folder / "info.csv", folder / "responses.csv"
    items, scales = _read_info(info_path)
    trait_options = _read_trait_options(folder / "metadata.csv")
    keys = list(items)
    responses = read_csv_file(
        responses_path,
        RESPONSES_EXPECTED,
        dtype=str,
        keep_default_na=False,
        na_values=[""],
        low_memory=False,
    )
    required = [RESPONDENT_COLUMN, *OPINIONQA_TRAITS, *keys]
    require_columns(responses.columns, required, responses_path, RESPONSES_EXPECTED)
    respondents = responses[RESPONDENT_COLUMN].fillna("").str.strip()
    if (respondents == "").any():
        row = int((respondents == "").to_numpy().argmax())
        raise DataRowError(responses_path, row, RESPONDENT_COLUMN, "empty respondent id")
    annotator_ids = f"W{wave}:" + respondents

    wide = responses[keys].copy()
    wide.insert(0, "_row", range(len(wide)))
    wide.insert(1, "annotator_id", annotator_ids)
    long = wide.melt(id_vars=["_row", "annotator_id"], var_name="item_id", value_name="answer")
    long = long.dropna(subset=["answer"])
    long["answer"] = long["answer"].str.strip()
    long = long[long["answer"] != ""]
    codes = pd.DataFrame(
        [
            (key, option, index)
            for key, scale in scales.items()
            for index, option in enumerate([*scale.labels, OPINIONQA_REFUSED])
        ],
        columns=["item_id", "answer", "label"],
    )
    codes.loc[codes["answer"] == OPINIONQA_REFUSED, "label"] = -1
    long = long.merge(codes, on=["item_id", "answer"], how="left", sort=False)
    unknown = long["label"].isna()
    if unknown.any():
        # info.csv cuts some long option strings (~120 characters): match by prefix.
        resolved = {
            (key, answer): _truncated_match(answer, scales[key].labels)
            for key, answer in long.loc[unknown, ["item_id", "answer"]]
            .drop_duplicates()
            .itertuples(index=False)
        }
        fills = [
            resolved[(k, a)]
            for k, a in long.loc[unknown, ["item_id", "answer"]].itertuples(index=False)
        ]
        long.loc[unknown, "label"] = [float("nan") if f is None else f for f in fills]
        matched = sum(1 for f in fills if f is not None)
        if matched:
            logger.warning(
                "%s: %d answers matched a truncated option string by prefix",
                responses_path,
                matched,
            )
        unknown = long["label"].isna()
    if unknown.any():
        bad = long[unknown].sort_values(["_row", "item_id"]).iloc[0]
        raise DataRowError(
            responses_path,
            int(bad["_row"]),
            str(bad["item_id"]),
            f"answer {bad['answer']!r} is not one of the question's options "
            f"{scales[str(bad['item_id'])].labels + [OPINIONQA_REFUSED]}",
        )
    refused = int((long["label"] == -1).sum())
    long = long[long["label"] != -1].sort_values(["_row"], kind="stable")
    judgments = pd.DataFrame(
        {
            "annotator_id": long["annotator_id"].to_numpy(),
            "item_id": long["item_id"].to_numpy(),
            "label": long["label"].astype(int).to_numpy(),
        }
    )

    traits = responses[list(OPINIONQA_TRAITS)].fillna(UNKNOWN_TRAIT).apply(lambda c: c.str.strip())
    for name in OPINIONQA_TRAITS:
        column = traits[name]
        unknown_value = column.isin([OPINIONQA_REFUSED, ""])
        if name in trait_options:
            unknown_value |= ~column.isin(trait_options[name])
        traits[name] = column.mask(unknown_value, UNKNOWN_TRAIT)
    traits.insert(0, "annotator_id", annotator_ids)
    traits = traits[
        kept_rows(
            traits["annotator_id"],
            traits[list(OPINIONQA_TRAITS)],
            str(responses_path),
            "respondents repeat with different attributes",
        )
    ]
    traits = traits[traits["annotator_id"].isin(set(judgments["annotator_id"]))]
    names = list(OPINIONQA_TRAITS)
    annotators = {
        str(row[0]): Annotator(id=str(row[0]), traits=dict(zip(names, row[1:])))
        for row in traits.itertuples(index=False, name=None)
    }
    weights = _read_weights(responses, annotator_ids, wave, responses_path)
    weights = {a: w for a, w in weights.items() if a in annotators}
    return OpinionQAWave(judgments, annotators, items, scales, refused, weights)
