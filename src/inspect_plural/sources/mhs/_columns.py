"""Measuring Hate Speech's official schema: the parquet's 131 columns and their values.

:data:`MHS_COLUMNS` lists the columns in order (survey items, IRT scores, target-identity
flags, annotator demographics and their one-hot blocks), built from the value lists
here; :data:`MHS_REQUIRED_COLUMNS` are the ones loading reads.
:func:`complete_mhs_frame` fills in every column a frame lacks, for demo, fixture and
benchmark files.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "EDUCATION_VALUES",
    "GENDER_COLUMNS",
    "IDEOLOGY_VALUES",
    "INCOME_VALUES",
    "MHS_COLUMNS",
    "MHS_REQUIRED_COLUMNS",
    "RACE_VALUES",
    "RELIGION_VALUES",
    "SEXUALITY_VALUES",
    "SURVEY_ITEMS",
    "complete_mhs_frame",
]

MHS_REQUIRED_COLUMNS = [
    "comment_id",
    "annotator_id",
    "text",
    "hatespeech",
    "annotator_gender",
    "annotator_educ",
    "annotator_income",
    "annotator_ideology",
    "annotator_age",
]
"""The columns read (everything else in the file is skipped)."""

_TARGETS = {
    "race": [
        "asian",
        "black",
        "latinx",
        "middle_eastern",
        "native_american",
        "pacific_islander",
        "white",
        "other",
    ],
    "religion": [
        "atheist",
        "buddhist",
        "christian",
        "hindu",
        "jewish",
        "mormon",
        "muslim",
        "other",
    ],
    "origin": ["immigrant", "migrant_worker", "specific_country", "undocumented", "other"],
    "gender": [
        "men",
        "non_binary",
        "transgender_men",
        "transgender_unspecified",
        "transgender_women",
        "women",
        "other",
    ],
    "sexuality": ["bisexual", "gay", "lesbian", "straight", "other"],
    "age": ["children", "teenagers", "young_adults", "middle_aged", "seniors", "other"],
    "disability": [
        "physical",
        "cognitive",
        "neurological",
        "visually_impaired",
        "hearing_impaired",
        "unspecific",
        "other",
    ],
}
SURVEY_ITEMS = [
    "sentiment",
    "respect",
    "insult",
    "humiliate",
    "status",
    "dehumanize",
    "violence",
    "genocide",
    "attack_defend",
]
EDUCATION_VALUES = [
    "some_high_school",
    "high_school_grad",
    "some_college",
    "college_grad_aa",
    "college_grad_ba",
    "professional_degree",
    "masters",
    "phd",
]
INCOME_VALUES = ["<10k", "10k-50k", "50k-100k", "100k-200k", ">200k"]
IDEOLOGY_VALUES = [
    "extremely_conservative",
    "conservative",
    "slightly_conservative",
    "neutral",
    "slightly_liberal",
    "liberal",
    "extremely_liberal",
    "no_opinion",
]
GENDER_COLUMNS = {
    "male": "men",
    "female": "women",
    "non_binary": "non_binary",
    "prefer_not_to_say": "prefer_not_to_say",
    "self_describe": "self_describe",
}
RACE_VALUES = _TARGETS["race"]
RELIGION_VALUES = [
    "atheist",
    "buddhist",
    "christian",
    "hindu",
    "jewish",
    "mormon",
    "muslim",
    "nothing",
    "other",
]
SEXUALITY_VALUES = ["bisexual", "gay", "straight", "other"]


def _ideology_column(value: str) -> str:
    # The release spells the one-hot columns of the extreme answers "extremeley_...".
    return "annotator_ideology_" + value.replace("extremely_", "extremeley_")


MHS_COLUMNS: list[str] = [
    "comment_id",
    "annotator_id",
    "platform",
    *SURVEY_ITEMS,
    "hatespeech",
    "hate_speech_score",
    "text",
    "infitms",
    "outfitms",
    "annotator_severity",
    "std_err",
    "annotator_infitms",
    "annotator_outfitms",
    "hypothesis",
    *[
        column
        for group, values in _TARGETS.items()
        for column in [*(f"target_{group}_{v}" for v in values), f"target_{group}"]
    ],
    "annotator_gender",
    "annotator_trans",
    "annotator_educ",
    "annotator_income",
    "annotator_ideology",
    *(f"annotator_gender_{c}" for c in GENDER_COLUMNS.values()),
    "annotator_transgender",
    "annotator_cisgender",
    "annotator_transgender_prefer_not_to_say",
    *(f"annotator_education_{v}" for v in EDUCATION_VALUES),
    *(f"annotator_income_{v}" for v in INCOME_VALUES),
    *(_ideology_column(v) for v in IDEOLOGY_VALUES),
    *(f"annotator_race_{v}" for v in RACE_VALUES),
    *(f"annotator_religion_{v}" for v in RELIGION_VALUES),
    *(f"annotator_sexuality_{v}" for v in SEXUALITY_VALUES),
    "annotator_age",
]
"""The 131 columns of the official parquet, in order.

Read from code that selects them (HF viewer, third-party analyses); the order of the
demographic one-hot blocks and the vocabulary of ``annotator_gender`` are inferred.
"""


def complete_mhs_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """Fill in every official column a frame lacks, for demo, fixture and benchmark files.

    The frame needs :data:`MHS_REQUIRED_COLUMNS`. Demographic one-hot columns are derived
    from the categorical ones; the other columns get plausible values that are a
    deterministic function of the ids and of ``hatespeech``. Not real data.

    Args:
        frame: Rows with at least the required columns.

    Returns:
        A frame with exactly :data:`MHS_COLUMNS`, in order.

    """
    import pandas as pd

    out = frame.copy()
    comment = out["comment_id"].astype("int64").to_numpy()
    annotator = out["annotator_id"].astype("int64").to_numpy()
    hate = pd.to_numeric(out["hatespeech"]).to_numpy(dtype=float)
    platforms = np.array(["reddit", "twitter", "youtube", "gab"])
    new: dict[str, object] = {}
    new["platform"] = platforms[comment % 4]
    for k, item in enumerate(SURVEY_ITEMS):
        noise = (comment * (k + 3) + annotator * (k + 7)) % 3 - 1
        new[item] = np.clip(np.round(hate * 1.5 + noise + (k % 2)), 0, 4).astype(float)
    per_comment = pd.Series(hate).groupby(comment).transform("mean").to_numpy()
    new["hate_speech_score"] = np.round(per_comment * 2.2 - 2.0 + (comment % 7) / 10, 4)
    new["infitms"] = np.round(0.6 + (comment % 11) / 10, 4)
    new["outfitms"] = np.round(0.5 + (comment % 13) / 10, 4)
    new["annotator_severity"] = np.round(((annotator % 21) - 10) / 20, 4)
    new["std_err"] = np.round(0.3 + (comment % 5) / 20, 4)
    new["annotator_infitms"] = np.round(0.7 + (annotator % 9) / 10, 4)
    new["annotator_outfitms"] = np.round(0.6 + (annotator % 8) / 10, 4)
    new["hypothesis"] = np.round(((comment + annotator) % 17) / 17 - 0.5, 4)
    for g, (group, values) in enumerate(_TARGETS.items()):
        picked = (comment + g) % (len(values) + 3)  # some comments target nothing here
        for v, value in enumerate(values):
            new[f"target_{group}_{value}"] = picked == v
        new[f"target_{group}"] = picked < len(values)
    new["annotator_trans"] = np.where(annotator % 29 == 0, "yes", "no")
    gender = out["annotator_gender"].astype(object)
    for value, suffix in GENDER_COLUMNS.items():
        new[f"annotator_gender_{suffix}"] = (gender == value).to_numpy()
    new["annotator_transgender"] = annotator % 29 == 0
    new["annotator_cisgender"] = annotator % 29 != 0
    new["annotator_transgender_prefer_not_to_say"] = np.zeros(len(out), dtype=bool)
    for column, names in [
        ("annotator_educ", {v: f"annotator_education_{v}" for v in EDUCATION_VALUES}),
        ("annotator_income", {v: f"annotator_income_{v}" for v in INCOME_VALUES}),
        ("annotator_ideology", {v: _ideology_column(v) for v in IDEOLOGY_VALUES}),
    ]:
        raw = out[column].astype(object)
        for value, name in names.items():
            new[name] = (raw == value).to_numpy()
    for prefix, values, salt in [
        ("annotator_race", RACE_VALUES, 3),
        ("annotator_religion", RELIGION_VALUES, 5),
        ("annotator_sexuality", SEXUALITY_VALUES, 11),
    ]:
        picked = (annotator * salt + salt) % len(values)
        for v, value in enumerate(values):
            new[f"{prefix}_{value}"] = picked == v
    extra = pd.DataFrame({k: v for k, v in new.items() if k not in out.columns}, index=out.index)
    result: pd.DataFrame = pd.concat([out, extra], axis=1)[MHS_COLUMNS]
    return result
