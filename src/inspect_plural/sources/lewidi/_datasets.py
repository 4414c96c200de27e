"""Loaders of ArMIS, ConvAbuse (LeWiDi 2023), CSC, MP, Paraphrase and VariErrNLI (2025).

HS-Brexit and MD-Agreement have their own modules (``sources.brexit``,
``sources.md_agreement``) and read the same 2023 folder.

Scales and label mapping (values checked in every file at :data:`LEWIDI_COMMIT`):

- **ArMIS**: ``0``/``1`` -> ``not misogynistic``/``misogynistic`` (nominal); soft and hard
  labels over the same two values.
- **ConvAbuse**: annotations are the abuse *severity* ``-3, -2, -1, 0, 1`` (values
  -3..-1 abusive, 0..1 not). ``label="abuse"`` (default) is the shared task's binary
  label: -3..-1 -> ``abusive``, 0..1 -> ``not abusive``; the file's ``soft_label`` and
  ``hard_label`` (``"1"`` = abusive; 0/1 stored as strings *and* numbers) describe it.
  ``label="severity"`` keeps the five values as an ordinal scale ``-3`` < ... < ``1``.
  The 12 binary rows of ``other_annotations`` (``ableist``, ..., ``implicit``) are also
  labels (``no``/``yes``). The text is a JSON object of turns inside a string, read into
  parts ``prev_agent``, ``prev_user``, ``agent``, ``user``.
- **MP** (MultiPICo): ``0``/``1`` -> ``not ironic``/``ironic``; soft-label keys are
  ``"0.0"``/``"1.0"`` in dev and ``"0"``/``"1"`` in test (both read).
- **CSC**: sarcasm ``1`` .. ``6``, ordinal.
- **Paraphrase**: ``-5`` .. ``5``, ordinal, in numeric order.
- **VariErrNLI**: an annotator gives one *or more* of contradiction, entailment,
  neutral (``"entailment,neutral"``); stored as one label of the label-set scale of
  :mod:`inspect_plural.label_sets`. Its soft label is, per base label, the share of
  annotators who included it (the file's three binary distributions).

MP and CSC ship no train file in the copy these loaders were tested on: the origin says
so, and the ``lewidi`` split then uses dev as the training pool. A train file, when
present, is read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_plural.label_sets import NLI_LABELS, encode_label_set, label_set_scale
from inspect_plural.records import LabelScale
from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.sources._hub import sha256_of
from inspect_plural.sources._once import data_logger
from inspect_plural.sources.lewidi._files import LewidiRelease, find_release
from inspect_plural.sources.lewidi._read import read_lewidi
from inspect_plural.sources.lewidi._record import MAIN_ANNOTATIONS
from inspect_plural.sources.lewidi._traits import armis_group_traits, read_meta

__all__ = [
    "ARMIS",
    "CONVABUSE",
    "CONVABUSE_LABELS",
    "CSC",
    "LEWIDI_RELEASES",
    "MP",
    "PARAPHRASE",
    "VARIERRNLI",
    "load_armis",
    "load_convabuse",
    "load_csc",
    "load_mp",
    "load_paraphrase",
    "load_varierrnli",
]

logger = data_logger(__name__)

ARMIS = LewidiRelease("ArMIS", 2023, "armis")
CONVABUSE = LewidiRelease("ConvAbuse", 2023, "convabuse")
CSC = LewidiRelease("CSC", 2025, "csc", optional=("train",), meta=True)
MP = LewidiRelease("MP", 2025, "mp", optional=("train",), meta=True)
PARAPHRASE = LewidiRelease("Paraphrase", 2025, "paraphrase", meta=True)
VARIERRNLI = LewidiRelease("VariErrNLI", 2025, "varierrnli", meta=True)
LEWIDI_RELEASES = {
    "armis": ARMIS,
    "brexit": LewidiRelease("HS-Brexit", 2023, "brexit"),
    "convabuse": CONVABUSE,
    "md_agreement": LewidiRelease("MD-Agreement", 2023, "md_agreement"),
    "csc": CSC,
    "mp": MP,
    "paraphrase": PARAPHRASE,
    "varierrnli": VARIERRNLI,
}
"""Dataset (task) name -> its LeWiDi files."""

_BINARY = ["0", "1"]

CONVABUSE_SEVERITY = ["-3", "-2", "-1", "0", "1"]
"""ConvAbuse's severity values, lowest (most severe abuse) first."""

CONVABUSE_OTHER = {
    "ableist": "ableist abuse",
    "homophobic": "homophobic abuse",
    "intellectual": "abuse about intellect",
    "racist": "racist abuse",
    "sexist": "sexist abuse",
    "sex_harassment": "sexual harassment",
    "transphobic": "transphobic abuse",
    "target.generalised": "abuse aimed at a group in general",
    "target.individual": "abuse aimed at an individual",
    "target.system": "abuse aimed at the conversational system",
    "explicit": "explicit abuse",
    "implicit": "implicit abuse",
}
"""ConvAbuse's ``other_annotations`` rows -> what a ``yes`` means."""

CONVABUSE_LABELS = ["abuse", "severity", *CONVABUSE_OTHER]
"""The labels ``load_convabuse`` can read."""

_CONVABUSE_CONTEXT = (
    "The conversation is between a user and a conversational agent (chatbot): the agent's "
    "previous turn (prev_agent), the user's previous turn (prev_user), the agent's last "
    "turn (agent) and the user's last turn (user), which is the one judged."
)


def _origin(release: LewidiRelease, folder: Path, files: list[tuple[str, Path]], demo: bool) -> str:
    kind = "demo data written for inspect_plural" if demo else "local LeWiDi JSON"
    digest = sha256_of(files[0][1])[:16]
    return f"{kind}: {release.name} in {folder.name}/ ({files[0][1].name} sha256 {digest})"


def _load(
    release: LewidiRelease,
    data_dir: str | Path | None,
    demo: bool,
    name: str,
    field: str,
    scale: LabelScale,
    raw_labels: list[str] | dict[str, int],
    **options: Any,
) -> AnnotatedCorpus:
    found = find_release(release, data_dir, demo)
    origin = _origin(release, found.folder, found.splits, demo)
    if found.absent:
        note = (
            f"no {', '.join(release.file(s) for s in found.absent)}: the official dev file is "
            "the training pool of the lewidi split"
        )
        logger.info("%s: %s", release.name, note)
        origin += f"; {note}"
    if found.meta is not None:
        traits, dimensions = read_meta(found.meta)
        options.update(annotator_traits=traits, trait_dimensions=dimensions)
    return read_lewidi(
        found.splits, name, field, scale, raw_labels, origin, demo, folder=found.label, **options
    )


def _check_label(dataset: str, label: str, known: list[str]) -> None:
    if label not in known:
        raise ValueError(f"unknown {dataset} label {label!r}; one of {known}")


def load_armis(
    data_dir: str | Path | None = None, demo: bool = False, label: str = "misogyny"
) -> AnnotatedCorpus:
    """Load ArMIS (Almanea & Poesio 2022; LeWiDi 2023): misogyny in Arabic tweets.

    Args:
        data_dir: Folder holding ``ArMIS_{train,dev,test}.json`` (else ``<data root>/armis``
            or ``<data root>/lewidi/2023``).
        demo: Use the demo files written for this package (same layout).
        label: ``misogyny`` (the only label).

    Returns:
        The corpus: three annotators with ``group``, ``Ideology`` and ``Gender``; items
        ``<split>-<id>``; official splits, soft and hard labels.

    Raises:
        DataNotFoundError: The files are missing (the message says where to get them).
        DataRowError: A malformed record.

    """
    _check_label("ArMIS", label, ["misogyny"])
    scale = LabelScale(
        kind="nominal",
        labels=["not misogynistic", "misogynistic"],
        description="Is this Arabic tweet misogynistic or sexist?",
    )
    return _load(
        ARMIS,
        data_dir,
        demo,
        "armis",
        MAIN_ANNOTATIONS,
        scale,
        _BINARY,
        group_traits=armis_group_traits,
    )


def _convabuse_scale(label: str) -> tuple[str, LabelScale, list[str] | dict[str, int]]:
    if label == "abuse":
        scale = LabelScale(
            kind="nominal",
            labels=["not abusive", "abusive"],
            description=f"{_CONVABUSE_CONTEXT} Is the user's last turn abusive?",
        )
        raw = {v: int(int(v) < 0) for v in CONVABUSE_SEVERITY}
        return MAIN_ANNOTATIONS, scale, raw
    if label == "severity":
        scale = LabelScale(
            kind="ordinal",
            labels=list(CONVABUSE_SEVERITY),
            description=(
                f"{_CONVABUSE_CONTEXT} How abusive is the user's last turn? -3, -2 and -1 "
                "are abusive (-3 the most severe); 0 and 1 are not abusive."
            ),
        )
        return MAIN_ANNOTATIONS, scale, list(CONVABUSE_SEVERITY)
    scale = LabelScale(
        kind="nominal",
        labels=["no", "yes"],
        description=f"{_CONVABUSE_CONTEXT} Is the user's last turn {CONVABUSE_OTHER[label]}?",
    )
    return label, scale, _BINARY


def load_convabuse(
    data_dir: str | Path | None = None, demo: bool = False, label: str = "abuse"
) -> AnnotatedCorpus:
    """Load ConvAbuse (Cercas Curry et al. 2021; LeWiDi 2023): abuse towards chatbots.

    Args:
        data_dir: Folder holding ``ConvAbuse_{train,dev,test}.json``.
        demo: Use the demo files written for this package (same layout).
        label: ``abuse`` (binary, the shared task's), ``severity`` (-3..1, ordinal) or one
            of the other annotations (:data:`CONVABUSE_LABELS`).

    Returns:
        The corpus: eight annotators without traits; items with the four turns as parts;
        official splits; the file's soft and hard labels for ``abuse`` only.

    Raises:
        DataNotFoundError: The files are missing.
        DataRowError: A malformed record.

    """
    _check_label("ConvAbuse", label, CONVABUSE_LABELS)
    field, scale, raw = _convabuse_scale(label)
    soft_keys = {"0": 0, "1": 1} if label == "abuse" else {}
    return _load(
        CONVABUSE,
        data_dir,
        demo,
        "convabuse",
        field,
        scale,
        raw,
        soft_keys=soft_keys,
        text_json=True,
    )


def load_mp(
    data_dir: str | Path | None = None, demo: bool = False, label: str = "irony"
) -> AnnotatedCorpus:
    """Load MP, MultiPICo (Casola et al. 2024; LeWiDi 2025): irony of a reply, 9 languages.

    Args:
        data_dir: Folder holding ``MP_{dev,test}.json`` (``MP_train.json`` if present) and
            ``MP_annotators_meta.json``.
        demo: Use the demo files written for this package (same layout, no train file).
        label: ``irony`` (the only label).

    Returns:
        The corpus: items with parts ``post`` and ``reply``; annotator traits from the
        metadata; official splits and soft labels.

    Raises:
        DataNotFoundError: The files are missing.
        DataRowError: A malformed record.

    """
    _check_label("MP", label, ["irony"])
    scale = LabelScale(
        kind="nominal",
        labels=["not ironic", "ironic"],
        description="Read the post and the reply to it. Is the reply ironic?",
    )
    return _load(MP, data_dir, demo, "mp", MAIN_ANNOTATIONS, scale, _BINARY)


def load_csc(
    data_dir: str | Path | None = None, demo: bool = False, label: str = "sarcasm"
) -> AnnotatedCorpus:
    """Load CSC, the Conversational Sarcasm Corpus (Jang & Frassinelli 2024; LeWiDi 2025).

    Args:
        data_dir: Folder holding ``CSC_{dev,test}.json`` (``CSC_train.json`` if present)
            and ``CSC_annotators_meta.json``.
        demo: Use the demo files written for this package (same layout, no train file).
        label: ``sarcasm`` (the only label).

    Returns:
        The corpus: items with parts ``context`` and ``response``, an ordinal 1-6 scale.

    Raises:
        DataNotFoundError: The files are missing.
        DataRowError: A malformed record.

    """
    _check_label("CSC", label, ["sarcasm"])
    values = [str(v) for v in range(1, 7)]
    scale = LabelScale(
        kind="ordinal",
        labels=values,
        description=(
            "Read the situation (context) and the reply (response). How sarcastic is the "
            "response, from 1 (not at all) to 6 (completely)?"
        ),
    )
    return _load(CSC, data_dir, demo, "csc", MAIN_ANNOTATIONS, scale, values)


def load_paraphrase(
    data_dir: str | Path | None = None, demo: bool = False, label: str = "paraphrase"
) -> AnnotatedCorpus:
    """Load Paraphrase (LeWiDi 2025): how far two questions are paraphrases, -5 .. +5.

    Args:
        data_dir: Folder holding ``Paraphrase_{train,dev,test}.json`` and
            ``Paraphrase_annotators_meta.json``.
        demo: Use the demo files written for this package (same layout).
        label: ``paraphrase`` (the only label).

    Returns:
        The corpus: items with parts ``Question1`` and ``Question2``, an ordinal scale of
        the 11 values ``-5`` .. ``5`` in numeric order.

    Raises:
        DataNotFoundError: The files are missing.
        DataRowError: A malformed record.

    """
    _check_label("Paraphrase", label, ["paraphrase"])
    values = [str(v) for v in range(-5, 6)]
    scale = LabelScale(
        kind="ordinal",
        labels=values,
        description=(
            "Are the two questions (Question1, Question2) paraphrases of each other? From -5 "
            "(clearly not: they ask different things) to 5 (clearly: they ask the same thing)."
        ),
    )
    return _load(PARAPHRASE, data_dir, demo, "paraphrase", MAIN_ANNOTATIONS, scale, values)


def _label_set(raw: str) -> str:
    return encode_label_set(raw.split(","))


def load_varierrnli(
    data_dir: str | Path | None = None, demo: bool = False, label: str = "nli"
) -> AnnotatedCorpus:
    """Load VariErrNLI (Weber-Genzel et al. 2024; LeWiDi 2025): multi-label NLI.

    Args:
        data_dir: Folder holding ``VariErrNLI_{train,dev,test}.json`` and
            ``VariErrNLI_annotators_meta.json``.
        demo: Use the demo files written for this package (same layout).
        label: ``nli`` (the only label).

    Returns:
        The corpus: items with parts ``context`` (premise) and ``statement`` (hypothesis);
        each judgment one label of the label-set scale (``"entailment + neutral"``, see
        :mod:`inspect_plural.label_sets`); soft labels per base label.

    Raises:
        DataNotFoundError: The files are missing.
        DataRowError: A malformed record or an unknown NLI label.

    """
    _check_label("VariErrNLI", label, ["nli"])
    scale = label_set_scale(
        NLI_LABELS,
        description=(
            "Given the context (the premise), is the statement (the hypothesis) true "
            "(entailment), false (contradiction) or neither (neutral)? Where several readings "
            "are defensible, give every label that applies, joined with ' + '."
        ),
    )
    codes = {label_: i for i, label_ in enumerate(scale.labels)}
    return _load(
        VARIERRNLI,
        data_dir,
        demo,
        "varierrnli",
        MAIN_ANNOTATIONS,
        scale,
        codes,
        normalise=_label_set,
        multilabel=NLI_LABELS,
    )
