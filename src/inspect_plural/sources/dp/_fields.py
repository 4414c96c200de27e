"""DP's fields: the label scales, the traits kept from the survey, and rater ids."""

from __future__ import annotations

import hashlib
import json
import math
from typing import TYPE_CHECKING, Any

from inspect_plural.records import LabelScale

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "DP_FLAGS",
    "DP_LABELS",
    "DP_LABEL_FIELDS",
    "DP_TOXICITY_LABELS",
    "DP_TRAITS",
    "MOJIBAKE",
    "UNKNOWN_TRAIT",
    "WORKER_FIELD",
    "rater_hash",
]


DP_TOXICITY_LABELS = [
    "not at all toxic",
    "slightly toxic",
    "moderately toxic",
    "very toxic",
    "extremely toxic",
]
"""The ``toxic_score`` values 0..4, in order."""


DP_FLAGS = {
    "is_profane": ("Is this comment profane?", ("not profane", "profane")),
    "is_threat": ("Is this comment a threat?", ("not a threat", "threat")),
    "is_identity_attack": (
        "Is this comment an attack on someone's identity?",
        ("not an identity attack", "identity attack"),
    ),
    "is_insult": ("Is this comment an insult?", ("not an insult", "insult")),
    "is_sexual_harassment": (
        "Is this comment sexual harassment?",
        ("not sexual harassment", "sexual harassment"),
    ),
    "fine_to_see_online": (
        "Is it fine to see this comment online?",
        ("not fine to see online", "fine to see online"),
    ),
    "remove_from_online": (
        "Should this comment be removed from the platform?",
        ("keep online", "remove from online"),
    ),
}


DP_LABELS: dict[str, LabelScale] = {
    "toxic_score": LabelScale(
        kind="ordinal",
        labels=DP_TOXICITY_LABELS,
        description="How toxic does this person find this online comment?",
    ),
    **{
        name: LabelScale(kind="nominal", labels=list(labels), description=question)
        for name, (question, labels) in DP_FLAGS.items()
    },
}
"""Label field -> its scale (``toxic_score`` is the default; the flags are binary)."""


DP_LABEL_FIELDS = tuple(DP_LABELS)
"""Fields of a rating that are labels; every other field is part of the rater's survey."""


DP_TRAITS = {
    "gender": "gender",
    "race": "race",
    "age_range": "age_range",
    "education": "education",
    "political_affiliation": "political_affilation",
    "lgbtq_status": "lgbtq_status",
    "is_parent": "is_parent",
    "religion_important": "religion_important",
    "technology_impact": "technology_impact",
    "toxic_comments_problem": "toxic_comments_problem",
    "personally_seen_toxic_content": "personally_seen_toxic_content",
    "personally_been_target": "personally_been_target",
}
"""Trait name -> rating field (the file misspells ``political_affilation``)."""


WORKER_FIELD = "worker_id"


UNKNOWN_TRAIT = "UNK"


MOJIBAKE = {"â€“": "–", "â€”": "—", "â€™": "’", "â€œ": "“", "â€\x9d": "”"}


def _is_missing(value: object) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def rater_hash(survey: dict[str, Any]) -> str:
    """The rebuilt id of a rater: ``"r"`` + 12 hex chars of sha1 over the survey's JSON.

    Args:
        survey: The rater's non-label fields (null values are left out).

    Returns:
        The id.

    """
    return _hash_present({k: v for k, v in survey.items() if not _is_missing(v)})


def _hash_present(present: dict[str, Any]) -> str:
    text = json.dumps(present, sort_keys=True)
    return "r" + hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


def _hashable(value: object) -> object:
    return json.dumps(value, sort_keys=True) if isinstance(value, list | dict) else value


def _rater_ids(ratings: pd.DataFrame) -> pd.Series:
    """``worker_id`` where present, else the survey hash (each distinct survey hashed once)."""
    import pandas as pd

    survey_columns = [c for c in ratings.columns if c not in DP_LABEL_FIELDS and c != WORKER_FIELD]
    if not survey_columns:
        hashed = pd.Series(rater_hash({}), index=ratings.index, dtype=object)
    else:
        survey = ratings[survey_columns]
        try:
            groups = survey.groupby(survey_columns, dropna=False, sort=False).ngroup()
        except TypeError:  # list or dict values
            survey = survey.map(_hashable)
            groups = survey.groupby(survey_columns, dropna=False, sort=False).ngroup()
        first = groups.drop_duplicates()
        distinct = survey.loc[first.index]
        rows = distinct.to_numpy(dtype=object).tolist()
        present = distinct.notna().to_numpy().tolist()
        ids = {
            int(g): _hash_present({c: v for c, v, p in zip(survey_columns, r, ok) if p})
            for g, r, ok in zip(first.to_numpy(), rows, present)
        }
        hashed = groups.map(ids)
    if WORKER_FIELD not in ratings.columns:
        return hashed.astype(str)
    worker = ratings[WORKER_FIELD]
    has_worker = worker.map(lambda v: not _is_missing(v) and str(v).strip() != "")
    merged: pd.Series = hashed.where(~has_worker, worker.astype(str).str.strip())
    return merged.astype(str)


def _flag_values(values: pd.Series) -> pd.Series:
    """Flag values as 0/1 (booleans, 0/1, true/false, yes/no), NaN when not a flag."""
    mapping = {"true": 1, "false": 0, "yes": 1, "no": 0, "1": 1, "0": 0, "1.0": 1, "0.0": 0}
    return values.map(lambda v: mapping.get(str(v).strip().lower()) if not _is_missing(v) else None)


def _trait_values(values: pd.Series) -> pd.Series:
    """Trait strings: stripped, mojibake repaired, ``UNK`` when missing or empty."""
    missing = values.isna()
    text = values.astype(str).str.strip()
    for bad, good in MOJIBAKE.items():
        text = text.str.replace(bad, good, regex=False)
    result: pd.Series = text.mask(missing | (text == ""), UNKNOWN_TRAIT)
    return result
