"""Split protocols for annotator-level tasks: which judgments are predicted, which are seen.

Three protocols, chosen with ``-T split=...`` and implemented on the same
:class:`~inspect_plural.sources._corpus.AnnotatedCorpus`:

- ``cinemetric`` (CINEMETRIC, Sadiri Javadi, Abedin and Flek 2025): sample
  ``n_annotators`` annotators that have at least ``k_train + m_test`` judgments, then for
  each one ``k_train`` training and ``m_test`` test judgments, all with the seed.
- ``perseval`` (PersEval, Lo et al. 2025): annotators are split disjointly into training
  users and test users; see :func:`perseval_split`.
- ``lewidi`` (LeWiDi shared tasks): the release's own train/dev/test split of the items;
  see :func:`lewidi_split`.

All return a :class:`CorpusSplit`. Every random choice is a function of the seed and of
the data only (ids are sorted before sampling), so a split is identical across runs,
processes and machines.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import numpy as np

from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.sources._once import data_logger

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "Adaptation",
    "CorpusSplit",
    "SplitProtocol",
    "cinemetric_split",
    "lewidi_split",
    "perseval_split",
]

logger = data_logger(__name__)

SplitProtocol = Literal["cinemetric", "perseval", "lewidi"]
Adaptation = Literal["none", "train", "test"]


@dataclass(frozen=True)
class CorpusSplit:
    """The outcome of a split protocol.

    Attributes:
        protocol: ``cinemetric``, ``perseval`` or ``lewidi``.
        test: Judgments to predict (one sample each), in a stable order.
        examples: Judgments of the *test annotators* that a method may show the model
            (their training judgments, or the adaptation set), keyed by annotator.
        train: The training pool: judgments a method may learn from (e.g. item
            majorities), mostly other people's; in the PersEval split it also holds the
            adaptation set when ``adaptation="train"``. Never contains a test judgment.
        summary: Counts and parameters, for the task metadata.

    """

    protocol: SplitProtocol
    test: pd.DataFrame
    examples: pd.DataFrame
    train: pd.DataFrame
    summary: dict[str, int | float | str | bool] = field(default_factory=dict)

    def examples_by_annotator(self) -> dict[str, pd.DataFrame]:
        """The example judgments of each test annotator (annotators without any omitted)."""
        return {str(a): frame for a, frame in self.examples.groupby("annotator_id", sort=False)}


def _shuffled(frame: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """Rows in a seeded random order (a stable function of the sorted input)."""
    ordered = frame.sort_values(["annotator_id", "item_id"], kind="stable")
    shuffled: pd.DataFrame = ordered.iloc[rng.permutation(len(ordered))]
    return shuffled


def cinemetric_split(
    corpus: AnnotatedCorpus,
    seed: int = 42,
    n_annotators: int = 100,
    k_train: int = 5,
    m_test: int = 10,
) -> CorpusSplit:
    """Sample annotators, then k training and m test judgments per annotator.

    Args:
        corpus: The records.
        seed: Seed of the annotator and judgment sampling.
        n_annotators: How many annotators (all eligible ones when fewer exist).
        k_train: Training judgments per annotator (shown to methods).
        m_test: Test judgments per annotator (the samples).

    Returns:
        The split: ``test`` has ``m_test`` judgments per sampled annotator, ``examples``
        their ``k_train`` others; ``train`` holds every judgment not in ``test`` (other
        people's labels, including of the test items, plus the examples).

    Raises:
        ValueError: When no annotator has ``k_train + m_test`` judgments.

    """
    import pandas as pd

    if n_annotators < 1 or k_train < 0 or m_test < 1:
        raise ValueError("cinemetric split needs n_annotators >= 1, k_train >= 0, m_test >= 1")
    judgments = corpus.judgments
    counts = judgments.groupby("annotator_id", sort=True).size()
    eligible = counts.index[counts >= k_train + m_test].astype(str).tolist()
    if not eligible:
        raise ValueError(
            f"{corpus.name}: no annotator has {k_train + m_test} judgments "
            f"(k_train={k_train} + m_test={m_test}); the most any annotator has is "
            f"{int(counts.max())}"
        )
    rng = np.random.default_rng(seed)
    if len(eligible) < n_annotators:
        logger.warning(
            "%s: only %d annotators have %d judgments; using all of them instead of %d",
            corpus.name,
            len(eligible),
            k_train + m_test,
            n_annotators,
        )
        chosen = eligible
    else:
        picks = rng.choice(len(eligible), size=n_annotators, replace=False)
        chosen = [eligible[i] for i in sorted(picks)]
    pool = judgments[judgments["annotator_id"].isin(chosen)]
    pool = _shuffled(pool, rng)
    position = pool.groupby("annotator_id", sort=False).cumcount().to_numpy()
    examples = pool[position < k_train]
    test = pool[(position >= k_train) & (position < k_train + m_test)]
    test = test.sort_values(["annotator_id", "item_id"], kind="stable").reset_index(drop=True)
    examples = examples.reset_index(drop=True)
    test_keys = pd.MultiIndex.from_frame(test[["annotator_id", "item_id"]])
    all_keys = pd.MultiIndex.from_frame(judgments[["annotator_id", "item_id"]])
    train = judgments[~all_keys.isin(test_keys)].reset_index(drop=True)
    return CorpusSplit(
        protocol="cinemetric",
        test=test,
        examples=examples,
        train=train,
        summary={
            "protocol": "cinemetric",
            "seed": seed,
            "n_annotators": len(chosen),
            "eligible_annotators": len(eligible),
            "k_train": k_train,
            "m_test": m_test,
            "test_judgments": len(test),
        },
    )


def natural_sorted(values: list[str]) -> list[str]:
    """Ids sorted as the official code sorts its native ids: numerically when all are integers."""
    if values and all(v.isascii() and v.isdigit() for v in values):
        return sorted(values, key=int)
    return sorted(values)


def _brexit_users(corpus: AnnotatedCorpus, seed: int, test_fraction: float) -> list[str]:
    """Test users of the BREXIT setup: a split stratified by annotator group (scikit-learn)."""
    from sklearn.model_selection import train_test_split

    users = list(dict.fromkeys(corpus.judgments["annotator_id"].tolist()))  # first seen order
    groups = [corpus.annotators[u].traits.get("group", "") for u in users]
    # shuffled (scikit-learn's default) with ``random_state`` as the seed
    _, test_users = train_test_split(
        users, test_size=test_fraction, random_state=seed, stratify=groups
    )
    return [str(u) for u in test_users]


def perseval_split(
    corpus: AnnotatedCorpus,
    seed: int = 42,
    adaptation: Adaptation = "test",
    extended: bool = False,
    test_fraction: float = 0.2,
    adaptation_fraction: float = 0.05,
    text_split: tuple[float, float] | None = None,
) -> CorpusSplit:
    """Split annotators disjointly into training and test users, as PersEval does.

    The procedure follows the official ``perseval/data.py`` ("legacy" strategy):

    1. ``int(n * test_fraction)`` test users are drawn with ``random.Random(seed).sample``
       from the sorted user ids; the others are training users.
    2. From the text ids of every test-user judgment (repeats included, sorted),
       ``int(len * adaptation_fraction)`` are drawn with a freshly seeded generator; these
       are the adaptation texts. Test users' judgments of adaptation texts form the
       adaptation set; their judgments of the other texts form the **test set**, which
       is the same whatever the adaptation setting.
    3. ``adaptation="none"`` discards the adaptation set; ``"train"`` adds it to the
       training pool (so it counts in item and pool majorities); ``"test"`` keeps it apart,
       for use at inference only. Under ``"train"`` and ``"test"`` a method may show a
       test annotator their own adaptation judgments (``examples``).
    4. Unless ``extended``, training judgments of test texts are removed from the pool.

    ``text_split=(0.7, 0.05)`` gives the BREXIT variant: users are split with scikit-learn's
    ``train_test_split`` stratified by the ``group`` trait, then ``int(0.7 n)`` of the sorted
    text ids are drawn as training-only texts and, from the rest (sorted, same generator),
    ``int(0.05 rest)`` as adaptation texts; the remaining texts are the test texts.

    Args:
        corpus: The records.
        seed: Seed of both draws (the official code uses 42).
        adaptation: ``none``, ``train`` or ``test``.
        extended: Keep other users' judgments of test texts in the training pool.
        test_fraction: Share of users held out as test users.
        adaptation_fraction: Share of test-user judgments whose texts go to adaptation.
        text_split: ``(train share, adaptation share)`` of texts, for the BREXIT variant.

    Returns:
        The split.

    """
    import pandas as pd

    if adaptation not in ("none", "train", "test"):
        raise ValueError(f"adaptation must be 'none', 'train' or 'test', not {adaptation!r}")
    judgments = corpus.judgments
    users = natural_sorted([str(u) for u in judgments["annotator_id"].unique()])
    if text_split is None:
        test_users = random.Random(seed).sample(users, int(len(users) * test_fraction))
    else:
        test_users = _brexit_users(corpus, seed, test_fraction)
    if not test_users:
        raise ValueError(
            f"{corpus.name}: {len(users)} annotators are too few to hold out "
            f"{test_fraction:.0%} of them as test users"
        )
    is_test_user = judgments["annotator_id"].isin(set(test_users)).to_numpy()

    if text_split is None:
        drawn = natural_sorted(judgments.loc[is_test_user, "item_id"].astype(str).tolist())
        adaptation_texts = set(
            random.Random(seed).sample(drawn, int(len(drawn) * adaptation_fraction))
        )
        in_adaptation = judgments["item_id"].isin(adaptation_texts).to_numpy()
        in_test = is_test_user & ~in_adaptation
    else:
        train_share, adaptation_share = text_split
        texts = natural_sorted([str(t) for t in judgments["item_id"].unique()])
        rng = random.Random(seed)
        train_texts = set(rng.sample(texts, int(len(texts) * train_share)))
        rest = natural_sorted([t for t in texts if t not in train_texts])
        adaptation_texts = set(rng.sample(rest, int(len(rest) * adaptation_share)))
        test_texts = set(rest) - adaptation_texts
        in_adaptation = judgments["item_id"].isin(adaptation_texts).to_numpy()
        in_test = is_test_user & judgments["item_id"].isin(test_texts).to_numpy()

    test = judgments[in_test]
    adapted = judgments[is_test_user & in_adaptation]
    train = judgments[~is_test_user]
    if adaptation == "train":
        train = pd.concat([train, adapted])
    if not extended:
        train = train[~train["item_id"].isin(set(test["item_id"].unique()))]
    examples = adapted if adaptation != "none" else adapted.iloc[0:0]
    return CorpusSplit(
        protocol="perseval",
        test=test.sort_values(["annotator_id", "item_id"], kind="stable").reset_index(drop=True),
        examples=examples.reset_index(drop=True),
        train=train.reset_index(drop=True),
        summary={
            "protocol": "perseval",
            "seed": seed,
            "adaptation": adaptation,
            "extended": extended,
            "users": len(users),
            "test_users": len(test_users),
            "train_users": len(users) - len(test_users),
            "test_judgments": len(test),
            "adaptation_judgments": len(adapted),
            "train_judgments": len(train),
            "test_texts": int(test["item_id"].nunique()),
        },
    )


def lewidi_split(
    corpus: AnnotatedCorpus,
    seed: int = 42,
    pool: tuple[str, ...] | str | None = None,
    k_examples: int | None = None,
) -> CorpusSplit:
    """The release's own split: predict every judgment of its test items (LeWiDi).

    1. **Test**: every judgment of the items whose official split is ``test``
       (:attr:`AnnotatedCorpus.item_splits`), all their annotators included.
    2. **Training pool**: every judgment of the items of the ``pool`` splits: ``train``
       by default, or ``dev`` when the corpus has no train item (MP and CSC as shipped).
       Dev items are otherwise held out, as the shared tasks' development data.
    3. **Examples**: a test annotator's own judgments in the training pool (all of them,
       or a seeded sample of at most ``k_examples``); an annotator who judged nothing
       there (e.g. CSC's test-only annotators) has none.

    Train and test items are disjoint, so no test judgment (nor anyone's label of a test
    item) is ever in the pool or among the examples.

    Args:
        corpus: The records; must carry ``item_splits``.
        seed: Seed of the example sampling (only used with ``k_examples``).
        pool: The official splits forming the training pool (a tuple, or ``"train,dev"``
            as ``-T`` gives it); default as above.
        k_examples: At most this many example judgments per test annotator (None: all).

    Returns:
        The split.

    Raises:
        ValueError: The corpus has no official split, no test item, or ``pool`` names
            ``test`` or an unknown split.

    """
    if not corpus.item_splits:
        raise ValueError(
            f"{corpus.name}: the lewidi split needs each item's official split "
            "(corpus.item_splits), which this dataset does not provide; use cinemetric or "
            "perseval"
        )
    present = set(corpus.item_splits.values())
    if isinstance(pool, str):
        pool = tuple(p.strip() for p in pool.split(",") if p.strip())
    if pool is None:
        pool = ("train",) if "train" in present else ("dev",)
    if "test" in pool or not pool or set(pool) - {"train", "dev"}:
        raise ValueError(f"pool must name 'train' and/or 'dev', not {pool!r}")
    if k_examples is not None and k_examples < 0:
        raise ValueError("k_examples must be >= 0")
    judgments = corpus.judgments
    split_of = judgments["item_id"].map(corpus.item_splits)
    test = judgments[(split_of == "test").to_numpy()]
    if test.empty:
        raise ValueError(f"{corpus.name}: no judgment of an official test item")
    train = judgments[split_of.isin(pool).to_numpy()]
    examples = train[train["annotator_id"].isin(set(test["annotator_id"].unique()))]
    if k_examples is not None:
        examples = _shuffled(examples, np.random.default_rng(seed))
        rank = examples.groupby("annotator_id", sort=False).cumcount().to_numpy()
        examples = examples[rank < k_examples].sort_values(
            ["annotator_id", "item_id"], kind="stable"
        )
    test_annotators = test["annotator_id"].unique()
    with_examples = examples["annotator_id"].nunique()
    return CorpusSplit(
        protocol="lewidi",
        test=test.sort_values(["annotator_id", "item_id"], kind="stable").reset_index(drop=True),
        examples=examples.reset_index(drop=True),
        train=train.reset_index(drop=True),
        summary={
            "protocol": "lewidi",
            "seed": seed,
            "pool": ",".join(pool),
            "k_examples": -1 if k_examples is None else k_examples,
            "test_items": int(test["item_id"].nunique()),
            "test_judgments": len(test),
            "test_annotators": len(test_annotators),
            "test_annotators_without_examples": len(test_annotators) - int(with_examples),
            "train_items": int(train["item_id"].nunique()),
            "train_judgments": len(train),
            "example_judgments": len(examples),
        },
    )
