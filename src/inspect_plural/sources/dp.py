"""DP: Diversity of Perspectives toxicity ratings (Kumar et al., SOUPS 2021).

The data is one encrypted file on ``scans.io/study/toxicity-perspectives`` (Censys); the
password must be requested from the authors (Deepak Kumar), so it is never downloaded.
Decrypted, it is :data:`DP_FILE` (``toxicity_ratings.json``), JSON lines: one comment per
line with ``comment``, ``comment_id``, ``source``, ``perspective_score`` and ``ratings``, a
list with one object per rater holding

- the labels of :data:`DP_LABEL_FIELDS`: ``toxic_score`` (0 "not at all toxic" to 4
  "extremely toxic") and the flags ``is_profane``, ``is_threat``, ``is_identity_attack``,
  ``is_insult``, ``is_sexual_harassment``, ``fine_to_see_online``, ``remove_from_online``;
- the rater's survey answers: ``gender``, ``race``, ``age_range``, ``education``,
  ``political_affilation`` (sic), ``lgbtq_status``, ``identify_as_transgender``,
  ``is_parent``, ``religion_important``, ``technology_impact``, ``uses_media_social``,
  ``uses_media_news``, ``uses_media_video``, ``uses_media_forums``,
  ``personally_seen_toxic_content``, ``personally_been_target``, ``toxic_comments_problem``.

Any ``*.jsonl`` or ``*.json`` file of JSON lines in the folder is accepted
(:data:`DP_FILE_GLOBS`); ``toxicity_ratings.json`` is preferred when several exist.

Rater ids. The public release has no worker id. A rating's ``worker_id`` is used when
present (a later release reportedly adds it); otherwise the id is rebuilt from the survey:
``"r" + sha1(json.dumps(survey, sort_keys=True))[:12]``, where ``survey`` holds every
non-label field of the rating that is not null (list or dict values enter as their JSON
text). As in third-party loaders, raters whose survey answers are identical therefore
merge into one annotator, and a rater who labelled the same comment twice (or two merged
raters who labelled the same comment) keeps the first judgment.

Traits are a readable subset of the survey (as in CINEMETRIC's DP profile), see
:data:`DP_TRAITS`; values are the data's strings (booleans as ``True``/``False``, the
mojibake ``â€“`` repaired to ``–``), ``UNK`` when missing.
"""

from __future__ import annotations

import hashlib
import json
import math
from importlib import resources
from pathlib import Path
from typing import Any

import pandas as pd

from inspect_plural.records import Annotator, Item, LabelScale
from inspect_plural.sources._corpus import AnnotatedCorpus, dedupe_judgments
from inspect_plural.sources._hub import sha256_of
from inspect_plural.sources._paths import DataNotFoundError, DataRowError, data_root, local_folder

__all__ = [
    "DP_FILE",
    "DP_FILE_GLOBS",
    "DP_LABELS",
    "DP_LABEL_FIELDS",
    "DP_SCANS_URL",
    "DP_TOXICITY_LABELS",
    "DP_TRAITS",
    "load_dp",
    "read_dp_jsonl",
    "rater_hash",
]

DP_SCANS_URL = "https://scans.io/study/toxicity-perspectives"
"""Where the encrypted release is published (password on request from the authors)."""

DP_FILE = "toxicity_ratings.json"
"""The expected (decrypted) file: JSON lines, one comment per line."""

DP_FILE_GLOBS = ("*.jsonl", "*.json")
"""File patterns accepted in the data folder (JSON lines in either case)."""

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
LOCAL_SUBDIR = "dp"
COMMENT_COLUMNS = ("comment", "comment_id", "ratings")
MOJIBAKE = {"â€“": "–", "â€”": "—", "â€™": "’", "â€œ": "“", "â€\x9d": "”"}


def _demo_dir() -> Path:
    return Path(str(resources.files("inspect_plural").joinpath("demo/dp")))


def _missing(searched: list[Path], detail: str = "") -> str:
    where = ", ".join(str(p) for p in searched)
    return (
        "DP (Kumar et al. 2021 toxicity ratings) needs the file "
        f"{DP_FILE} (JSON lines, one comment per line with its ratings), which cannot be "
        "downloaded automatically: it is published as a single encrypted file on "
        f"{DP_SCANS_URL} and the password must be requested from the authors (Deepak "
        f"Kumar et al.). Decrypt it and put {DP_FILE} (any *.jsonl or *.json file of JSON "
        f"lines is accepted) in {data_root() / LOCAL_SUBDIR}/ or pass -T data_dir=FOLDER, "
        f"or use the offline demo rows: -T demo=true. Searched: {where}."
        + (f" {detail}" if detail else "")
    )


def _find_file(folder: Path) -> Path | None:
    if not folder.is_dir():
        return None
    if (folder / DP_FILE).is_file():
        return folder / DP_FILE
    candidates = sorted({p for g in DP_FILE_GLOBS for p in folder.glob(g) if p.is_file()})
    if len(candidates) > 1:
        raise ValueError(
            f"DP: several candidate files in {folder}: {[p.name for p in candidates]}; "
            f"keep one (or name it {DP_FILE})"
        )
    return candidates[0] if candidates else None


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


def read_dp_jsonl(path: Path, label: str = "toxic_score", demo: bool = False) -> AnnotatedCorpus:
    """Read the DP JSON-lines file into records.

    Args:
        path: The file.
        label: ``toxic_score`` (default) or one of the binary flags of :data:`DP_LABELS`.
        demo: Whether the file is demo data.

    Returns:
        The corpus.

    Raises:
        ValueError: An unknown label, or a comment field missing from the whole file.
        DataRowError: A line that is not a JSON object, or a rating with a bad label.

    """
    if label not in DP_LABELS:
        raise ValueError(f"unknown DP label {label!r}; one of {list(DP_LABELS)}")
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    numbered = [(n, line) for n, line in enumerate(lines) if line.strip()]
    try:
        records = [json.loads(line) for _, line in numbered]
    except json.JSONDecodeError:
        for n, line in numbered:
            try:
                json.loads(line)
            except json.JSONDecodeError as ex:
                raise DataRowError(path, n, "(line)", f"not valid JSON ({ex.msg})") from None
        raise
    for (n, _), record in zip(numbered, records):
        if not isinstance(record, dict):
            raise DataRowError(path, n, "(line)", "expected one JSON object per line")
    if not records:
        raise DataRowError(path, 0, "(line)", "the file holds no comments")
    comments = pd.DataFrame(records, dtype=object)
    missing = [c for c in COMMENT_COLUMNS if c not in comments.columns]
    if missing:
        raise ValueError(f"{path} lacks field(s) {missing}; has {list(comments.columns)}")
    comments["_row"] = [n for n, _ in numbered]

    item_ids = comments["comment_id"].map(lambda v: "" if _is_missing(v) else str(v).strip())
    texts = comments["comment"].map(lambda v: "" if _is_missing(v) else str(v).strip())
    for field, values in (("comment_id", item_ids), ("comment", texts)):
        empty = values == ""
        if empty.any():
            raise DataRowError(
                path, int(comments["_row"][empty].iloc[0]), field, "missing or empty"
            )
    bad_list = ~comments["ratings"].map(lambda v: isinstance(v, list))
    if bad_list.any():
        row = int(comments["_row"][bad_list].iloc[0])
        raise DataRowError(path, row, "ratings", "expected a list of rating objects")
    comments["item_id"] = item_ids

    exploded = comments[["_row", "item_id", "ratings"]].explode("ratings", ignore_index=True)
    exploded = exploded[exploded["ratings"].notna()]
    exploded["_position"] = exploded.groupby("_row", sort=False).cumcount()
    not_object = ~exploded["ratings"].map(lambda v: isinstance(v, dict))
    if not_object.any():
        bad = exploded[not_object].iloc[0]
        raise DataRowError(
            path, int(bad["_row"]), f"ratings[{bad['_position']}]", "expected a JSON object"
        )
    ratings = pd.DataFrame(exploded["ratings"].tolist(), dtype=object)
    where = exploded[["_row", "item_id", "_position"]].reset_index(drop=True)
    if label not in ratings.columns:
        raise ValueError(f"{path}: no rating has the field {label!r}")
    raw = ratings[label]
    if label == "toxic_score":
        numbers = pd.to_numeric(raw.map(lambda v: None if isinstance(v, bool) else v), "coerce")
        valid = numbers.isin(range(len(DP_TOXICITY_LABELS)))
        problem = f"expected an integer 0-{len(DP_TOXICITY_LABELS) - 1}"
    else:
        numbers = _flag_values(raw)
        valid = numbers.notna()
        problem = "expected a boolean (true/false)"
    if not valid.all():
        position = int((~valid).to_numpy().argmax())
        bad = where.iloc[position]
        raise DataRowError(
            path,
            int(bad["_row"]),
            f"ratings[{bad['_position']}].{label}",
            f"{raw.iloc[position]!r}: {problem}",
        )

    annotator_ids = _rater_ids(ratings)
    judgments, _ = dedupe_judgments(
        pd.DataFrame(
            {
                "annotator_id": annotator_ids.to_numpy(),
                "item_id": where["item_id"].to_numpy(),
                "label": numbers.astype(int).to_numpy(),
            }
        )
    )
    items: dict[str, Item] = {}
    for item_id, text in zip(comments["item_id"], texts):
        items.setdefault(item_id, Item(id=item_id, text=text))

    first = ~annotator_ids.duplicated(keep="first")
    trait_columns = {
        name: (
            field
            if field in ratings.columns or field != "political_affilation"
            else "political_affiliation"
        )
        for name, field in DP_TRAITS.items()
    }
    profile = pd.DataFrame(
        {
            name: (
                _trait_values(ratings.loc[first, field])
                if field in ratings.columns
                else UNKNOWN_TRAIT
            )
            for name, field in trait_columns.items()
        },
        index=ratings.index[first],
    )
    names = list(DP_TRAITS)
    annotators = {
        a: Annotator(id=a, traits=dict(zip(names, values)))
        for a, values in zip(
            annotator_ids[first].tolist(), profile[names].to_numpy(dtype=object).tolist()
        )
    }
    kind = "demo data written for inspect_plural" if demo else "local DP JSON lines"
    return AnnotatedCorpus(
        name="dp",
        scale=DP_LABELS[label],
        annotators=annotators,
        items=items,
        judgments=judgments,
        origin=f"{kind} {path.name} (sha256 {sha256_of(path)[:16]})",
        demo=demo,
        trait_dimensions=names,
    )


def load_dp(
    data_dir: str | Path | None = None,
    demo: bool = False,
    label: str = "toxic_score",
) -> AnnotatedCorpus:
    """Load the DP toxicity ratings (Kumar et al. 2021) as records.

    Search order: ``data_dir``; ``<data root>/dp``. There is no download: the data is
    user-supplied (see the module docstring and the error message).

    Args:
        data_dir: Folder holding the JSON-lines file.
        demo: Use the demo file written for this package.
        label: ``toxic_score`` (default, ordinal 0-4) or a binary flag of :data:`DP_LABELS`.

    Returns:
        The corpus: one annotator per rater (``worker_id`` or survey hash), items keyed by
        ``comment_id``.

    Raises:
        DataNotFoundError: No file is found.
        ValueError: An unknown label, several candidate files, or a missing field.
        DataRowError: A malformed line or rating.

    """
    if label not in DP_LABELS:
        raise ValueError(f"unknown DP label {label!r}; one of {list(DP_LABELS)}")
    folder = _demo_dir() if demo else local_folder(data_dir, LOCAL_SUBDIR)
    path = _find_file(folder)
    if path is None:
        raise DataNotFoundError(_missing([folder]))
    return read_dp_jsonl(path, label=label, demo=demo)
