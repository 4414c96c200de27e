# inspect-evals-lint: ignore-file[main_file] -- one module per task family (docs/register.md)
"""The LeWiDi tasks: ArMIS, ConvAbuse (2023), CSC, MP, Paraphrase and VariErrNLI (2025).

HS-Brexit and MD-Agreement, the other two LeWiDi 2023 datasets, are the ``brexit`` and
``md_agreement`` tasks of :mod:`inspect_plural.tasks.perspective` (``-T split=lewidi``
gives them the release's split). Every task reads the official JSON from
``-T data_dir=`` (e.g. ``../shared/data/lewidi/2023`` or ``/2025``; never downloaded) or
the demo files (``-T demo=true``), defaults to the release's own split (``lewidi``:
PersEval's user split cannot hold out a fifth of 3 or 4 annotators) and takes every
option of the annotator-level tasks, checked before any data is read: ``-T
target=annotator`` (default: one sample per judgment) or ``distribution`` (one per item,
gold = the file's soft label), ``-T method=``, ``-T metrics_preset=lewidi`` (the official
metrics and rounding), ... (see ``docs/lewidi.md``).
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Task, task

from inspect_plural.sources.lewidi import (
    CONVABUSE_LABELS,
    load_armis,
    load_convabuse,
    load_csc,
    load_mp,
    load_paraphrase,
    load_varierrnli,
)
from inspect_plural.tasks.annotator import dataset_specs
from inspect_plural.tasks.perspective import DEFAULT_SEED, dataset_options, protocol_task

__all__ = ["LEWIDI_TASKS", "armis", "convabuse", "csc", "mp", "paraphrase", "varierrnli"]


def _labels(*names: str) -> dict[str, str]:
    return {name: name for name in names}


_CONVABUSE = dataset_specs(_labels(*CONVABUSE_LABELS), "abuse")
_PARAPHRASE = dataset_specs(_labels("paraphrase"), "paraphrase")


@task
def armis(
    data_dir: str | None = None,
    demo: bool = False,
    seed: int = DEFAULT_SEED,
    label: str = "misogyny",
    **options: Any,
) -> Task:
    """ArMIS (Almanea & Poesio 2022; LeWiDi 2023): misogyny in Arabic tweets, 3 annotators.

    Args:
        data_dir: Folder with ``ArMIS_{train,dev,test}.json`` (e.g. the LeWiDi 2023 folder).
        demo: Use the demo files written for this package.
        seed: Seed of every random choice.
        label: ``misogyny``.
        **options: Options shared by annotator-level tasks (module docstring).
    """
    opts = dataset_options("armis", locals(), dataset_specs(_labels("misogyny"), "misogyny"))
    corpus = load_armis(data_dir=opts["data_dir"], demo=opts["demo"], label=opts["label"])
    return protocol_task(corpus, opts, options)


@task
def convabuse(
    data_dir: str | None = None,
    demo: bool = False,
    seed: int = DEFAULT_SEED,
    label: str = "abuse",
    **options: Any,
) -> Task:
    """ConvAbuse (Cercas Curry et al. 2021; LeWiDi 2023): abuse towards chatbots, 8 annotators.

    Args:
        data_dir: Folder with ``ConvAbuse_{train,dev,test}.json``.
        demo: Use the demo files written for this package.
        seed: Seed of every random choice.
        label: ``abuse`` (the shared task's binary label), ``severity`` (-3..1, ordinal)
            or one of the other annotations (``ableist``, ..., ``implicit``).
        **options: Options shared by annotator-level tasks (module docstring).
    """
    opts = dataset_options("convabuse", locals(), _CONVABUSE)
    corpus = load_convabuse(data_dir=opts["data_dir"], demo=opts["demo"], label=opts["label"])
    return protocol_task(corpus, opts, options)


@task
def csc(
    data_dir: str | None = None,
    demo: bool = False,
    seed: int = DEFAULT_SEED,
    label: str = "sarcasm",
    **options: Any,
) -> Task:
    """CSC (Jang & Frassinelli 2024; LeWiDi 2025): how sarcastic a reply is, 1 to 6.

    Args:
        data_dir: Folder with ``CSC_{dev,test}.json`` and ``CSC_annotators_meta.json``
            (no train file: dev is the training pool).
        demo: Use the demo files written for this package.
        seed: Seed of every random choice.
        label: ``sarcasm``.
        **options: Options shared by annotator-level tasks (module docstring).
    """
    opts = dataset_options("csc", locals(), dataset_specs(_labels("sarcasm"), "sarcasm"))
    corpus = load_csc(data_dir=opts["data_dir"], demo=opts["demo"], label=opts["label"])
    return protocol_task(corpus, opts, options)


@task
def mp(
    data_dir: str | None = None,
    demo: bool = False,
    seed: int = DEFAULT_SEED,
    label: str = "irony",
    **options: Any,
) -> Task:
    """MP, MultiPICo (Casola et al. 2024; LeWiDi 2025): irony of a reply, 9 languages.

    Args:
        data_dir: Folder with ``MP_{dev,test}.json`` and ``MP_annotators_meta.json`` (no
            train file: dev is the training pool).
        demo: Use the demo files written for this package.
        seed: Seed of every random choice.
        label: ``irony``.
        **options: Options shared by annotator-level tasks (module docstring).
    """
    opts = dataset_options("mp", locals(), dataset_specs(_labels("irony"), "irony"))
    corpus = load_mp(data_dir=opts["data_dir"], demo=opts["demo"], label=opts["label"])
    return protocol_task(corpus, opts, options)


@task
def paraphrase(
    data_dir: str | None = None,
    demo: bool = False,
    seed: int = DEFAULT_SEED,
    label: str = "paraphrase",
    **options: Any,
) -> Task:
    """Paraphrase (LeWiDi 2025): how far two questions are paraphrases, -5 to 5, 4 annotators.

    Args:
        data_dir: Folder with ``Paraphrase_{train,dev,test}.json`` and
            ``Paraphrase_annotators_meta.json``.
        demo: Use the demo files written for this package.
        seed: Seed of every random choice.
        label: ``paraphrase``.
        **options: Options shared by annotator-level tasks (module docstring).
    """
    opts = dataset_options("paraphrase", locals(), _PARAPHRASE)
    corpus = load_paraphrase(data_dir=opts["data_dir"], demo=opts["demo"], label=opts["label"])
    return protocol_task(corpus, opts, options)


@task
def varierrnli(
    data_dir: str | None = None,
    demo: bool = False,
    seed: int = DEFAULT_SEED,
    label: str = "nli",
    **options: Any,
) -> Task:
    """VariErrNLI (Weber-Genzel et al. 2024; LeWiDi 2025): NLI, one or more labels each.

    Args:
        data_dir: Folder with ``VariErrNLI_{train,dev,test}.json`` and
            ``VariErrNLI_annotators_meta.json``.
        demo: Use the demo files written for this package.
        seed: Seed of every random choice.
        label: ``nli`` (each judgment a label set, e.g. ``entailment + neutral``).
        **options: Options shared by annotator-level tasks (module docstring).
    """
    opts = dataset_options("varierrnli", locals(), dataset_specs(_labels("nli"), "nli"))
    corpus = load_varierrnli(data_dir=opts["data_dir"], demo=opts["demo"], label=opts["label"])
    return protocol_task(corpus, opts, options)


LEWIDI_TASKS = {
    "armis": armis,
    "convabuse": convabuse,
    "csc": csc,
    "mp": mp,
    "paraphrase": paraphrase,
    "varierrnli": varierrnli,
}
"""The six tasks of this module by name (``brexit`` and ``md_agreement`` are elsewhere)."""
