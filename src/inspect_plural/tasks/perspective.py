# inspect-evals-lint: ignore-file[main_file] -- one module per task family (docs/register.md)
"""The seven annotator-level tasks: predict one person's label of one item.

Every task takes ``data_dir``, ``demo``, ``seed`` and (where the dataset has several)
``label``, plus the options shared by all annotator-level tasks, passed through to
:func:`~inspect_plural.tasks.annotator.perspective_task` (``method``, ``split``,
``n_annotators``, ``k_train``, ``m_test``, ``adaptation``, ``extended``, ``named``,
``max_examples``, ``answer_format``, ``reasoning``, ``temperature``, ``max_tokens``,
``prompts``, ``metrics_preset``, ``metrics``, ``protocol``, and the single-method options
such as ``character_names`` or ``trait_scope``). Every option is checked before any data
is read. Defaults: the CINEMETRIC split for ``opinionqa`` and ``dp``, the PersEval split
for the others.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

from inspect_ai import Task, task

from inspect_plural.options import TaskOption, user_options
from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.sources.brexit import BREXIT_LABELS, load_brexit
from inspect_plural.sources.dices import load_dices
from inspect_plural.sources.dp import DP_LABELS, load_dp
from inspect_plural.sources.epic import EPIC_LABELS, load_epic
from inspect_plural.sources.md_agreement import MD_AGREEMENT_LABELS, load_md_agreement
from inspect_plural.sources.mhs import MHS_LABELS, load_mhs
from inspect_plural.sources.opinionqa import load_opinionqa
from inspect_plural.splits import SplitProtocol
from inspect_plural.tasks.annotator import (
    COMMON_SPECS,
    METHOD_SPECS,
    check_annotator_options,
    dataset_specs,
    perspective_task,
)

__all__ = [
    "DATASET_PROTOCOLS",
    "SplitDefaults",
    "brexit",
    "dataset_options",
    "dices",
    "dp",
    "epic",
    "md_agreement",
    "mhs",
    "opinionqa",
    "protocol_task",
]

DEFAULT_SEED = 42
BREXIT_TEXT_SPLIT = (0.7, 0.05)
"""PersEval's BREXIT setup: 70% of texts for training only, 5% of the rest for adaptation."""


class SplitDefaults(NamedTuple):
    """A dataset's split protocol when the user names none, as its paper runs it."""

    default_split: SplitProtocol = "perseval"
    text_split: tuple[float, float] | None = None


DATASET_PROTOCOLS: dict[str, SplitDefaults] = {
    "opinionqa": SplitDefaults("cinemetric"),
    "dp": SplitDefaults("cinemetric"),
    "brexit": SplitDefaults(text_split=BREXIT_TEXT_SPLIT),
    "epic": SplitDefaults(),
    "mhs": SplitDefaults(),
    "md_agreement": SplitDefaults(),
    "dices": SplitDefaults(),
    "armis": SplitDefaults("lewidi"),
    "convabuse": SplitDefaults("lewidi"),
    "csc": SplitDefaults("lewidi"),
    "mp": SplitDefaults("lewidi"),
    "paraphrase": SplitDefaults("lewidi"),
    "varierrnli": SplitDefaults("lewidi"),
}
"""Each built-in dataset's defaults: CINEMETRIC's split for its datasets, PersEval's for
PersEval's, the release's own for the LeWiDi datasets (PersEval's user split cannot hold
out a fifth of 3 or 4 annotators); the generic ``perspective`` task applies the same ones
to these datasets. Under ``-T target=distribution`` a dataset with official splits
(LeWiDi, HS-Brexit, MD-Agreement) defaults to ``lewidi``."""


_ANNOTATOR_NAMES = frozenset(spec.name for spec in (*COMMON_SPECS, *METHOD_SPECS))
_REVISION = TaskOption("revision", None, help="Hugging Face revision when downloading")
_OPINIONQA = [*dataset_specs(), TaskOption("waves", None, "int_list", low=1, help="waves")]
_DICES = [
    *dataset_specs(),
    TaskOption("label", "Q2_harmful_content_overall", help="a per-rater question column"),
    TaskOption("subset", "350", choices=("350", "990"), help="DICES-350 or DICES-990"),
    _REVISION,
]


def dataset_options(
    task_name: str, explicit: dict[str, Any], extra: list[TaskOption]
) -> dict[str, Any]:
    """Every option of a dataset task, checked before any data is read."""
    given = {k: v for k, v in explicit.items() if k != "options"}
    given.update(user_options(explicit.get("options") or {}))
    return check_annotator_options(task_name, given, tuple(extra))


def protocol_task(corpus: AnnotatedCorpus, opts: dict[str, Any], given: dict[str, Any]) -> Task:
    """The task of a built-in corpus under its dataset's default protocol."""
    defaults = DATASET_PROTOCOLS[corpus.name]
    annotator = {k: opts[k] for k in given if k in _ANNOTATOR_NAMES}
    return perspective_task(
        corpus,
        seed=opts["seed"],
        default_split=defaults.default_split,
        text_split=defaults.text_split,
        **annotator,
    )


@task
def opinionqa(
    data_dir: str | None = None,
    demo: bool = False,
    seed: int = DEFAULT_SEED,
    waves: list[int] | int | str | None = None,
    **options: Any,
) -> Task:
    """OpinionQA (Santurkar et al. 2023): a Pew panel respondent's answer to a survey question.

    Args:
        data_dir: Folder with the ``American_Trends_Panel_W*`` folders (user-supplied).
        demo: Use the demo panel written for this package.
        seed: Seed of every random choice.
        waves: Waves to load: a list, one number, or "26,27" (default: every wave present).
        **options: Options shared by annotator-level tasks (module docstring).
    """
    opts = dataset_options("opinionqa", locals(), _OPINIONQA)
    corpus = load_opinionqa(data_dir=opts["data_dir"], demo=opts["demo"], waves=opts["waves"])
    return protocol_task(corpus, opts, options)


@task
def dp(
    data_dir: str | None = None,
    demo: bool = False,
    seed: int = DEFAULT_SEED,
    label: str = "toxic_score",
    **options: Any,
) -> Task:
    """DP (Kumar et al. 2021): a rater's 0-4 toxicity score of a comment.

    Args:
        data_dir: Folder with the toxicity ratings JSONL (user-supplied).
        demo: Use the demo ratings written for this package.
        seed: Seed of every random choice.
        label: ``toxic_score``.
        **options: Options shared by annotator-level tasks (module docstring).
    """
    opts = dataset_options("dp", locals(), dataset_specs(DP_LABELS, "toxic_score"))
    corpus = load_dp(data_dir=opts["data_dir"], demo=opts["demo"], label=opts["label"])
    return protocol_task(corpus, opts, options)


@task
def brexit(
    data_dir: str | None = None,
    demo: bool = False,
    seed: int = DEFAULT_SEED,
    label: str = "hs",
    revision: str | None = None,
    **options: Any,
) -> Task:
    """HS-Brexit (Akhtar et al. 2021): hate speech as judged by target and control groups.

    Args:
        data_dir: Folder with the Le-Wi-Di JSON or hub-layout CSVs (else data/ or the hub).
        demo: Use the demo files written for this package.
        seed: Seed of every random choice.
        label: ``hs``, ``offensiveness``, ``aggressiveness`` or ``stereotype`` (hub only).
        revision: Hugging Face revision when downloading.
        **options: Options shared by annotator-level tasks (module docstring).
    """
    opts = dataset_options("brexit", locals(), [*dataset_specs(BREXIT_LABELS, "hs"), _REVISION])
    corpus = load_brexit(
        data_dir=opts["data_dir"], demo=opts["demo"], label=opts["label"], revision=opts["revision"]
    )
    return protocol_task(corpus, opts, options)


@task
def epic(
    data_dir: str | None = None,
    demo: bool = False,
    seed: int = DEFAULT_SEED,
    label: str = "irony",
    revision: str | None = None,
    **options: Any,
) -> Task:
    """EPIC (Frenda et al. 2023): whether a reply is ironic, by annotators of five countries.

    Args:
        data_dir: Folder with ``EPICorpus.csv`` (else data/ or the hub).
        demo: Use the demo file written for this package.
        seed: Seed of every random choice.
        label: ``irony``.
        revision: Hugging Face revision when downloading.
        **options: Options shared by annotator-level tasks (module docstring).
    """
    opts = dataset_options("epic", locals(), [*dataset_specs(EPIC_LABELS, "irony"), _REVISION])
    corpus = load_epic(
        data_dir=opts["data_dir"], demo=opts["demo"], label=opts["label"], revision=opts["revision"]
    )
    return protocol_task(corpus, opts, options)


@task
def mhs(
    data_dir: str | None = None,
    demo: bool = False,
    seed: int = DEFAULT_SEED,
    label: str = "hateful",
    revision: str | None = None,
    **options: Any,
) -> Task:
    """Measuring Hate Speech (Sachdeva et al. 2022): 7,912 annotators' hate-speech labels.

    Args:
        data_dir: Folder with the official parquet (else data/ or the hub).
        demo: Use the demo file written for this package.
        seed: Seed of every random choice.
        label: ``hateful`` (hatespeech > 0, as PersEval) or ``hatespeech`` (0-2 ordinal).
        revision: Hugging Face revision when downloading.
        **options: Options shared by annotator-level tasks (module docstring).
    """
    opts = dataset_options("mhs", locals(), [*dataset_specs(MHS_LABELS, "hateful"), _REVISION])
    corpus = load_mhs(
        data_dir=opts["data_dir"], demo=opts["demo"], label=opts["label"], revision=opts["revision"]
    )
    return protocol_task(corpus, opts, options)


@task
def md_agreement(
    data_dir: str | None = None,
    demo: bool = False,
    seed: int = DEFAULT_SEED,
    label: str = "offensiveness",
    **options: Any,
) -> Task:
    """MD-Agreement (Leonardelli et al. 2021): offensiveness; no demographics (unnamed only).

    Args:
        data_dir: Folder with the Le-Wi-Di JSON files (e.g. the LeWiDi 2023 folder).
        demo: Use the demo files written for this package.
        seed: Seed of every random choice.
        label: ``offensiveness``.
        **options: Options shared by annotator-level tasks (module docstring).
    """
    opts = dataset_options(
        "md_agreement", locals(), dataset_specs(MD_AGREEMENT_LABELS, "offensiveness")
    )
    corpus = load_md_agreement(data_dir=opts["data_dir"], demo=opts["demo"], label=opts["label"])
    return protocol_task(corpus, opts, options)


@task
def dices(
    data_dir: str | None = None,
    demo: bool = False,
    seed: int = DEFAULT_SEED,
    label: str = "Q2_harmful_content_overall",
    subset: Literal["350", "990"] = "350",
    **options: Any,
) -> Task:
    """DICES (Aroyo et al. 2023): a rater's judgment of harm in a conversation with a chatbot.

    Args:
        data_dir: Folder with the official CSV (else data/ or the pinned GitHub file).
        demo: Use the demo files written for this package.
        seed: Seed of every random choice.
        label: ``Q2_harmful_content_overall`` (never the expert ``degree_of_harm``).
        subset: ``350`` or ``990``.
        **options: Options shared by annotator-level tasks (module docstring).
    """
    opts = dataset_options("dices", locals(), _DICES)
    corpus = load_dices(
        data_dir=opts["data_dir"],
        demo=opts["demo"],
        label=opts["label"],
        subset=opts["subset"],
        revision=opts["revision"],
    )
    return protocol_task(corpus, opts, options)
