"""The Per-MPST matrix factorisation baseline: biases, PureSVD factors and the fold-in."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import pearsonr

from inspect_plural.records import MovieFactors, PersonalReview, ScoredReview, TrainingFactors
from inspect_plural.solvers.perse._factorization import (
    BIAS_ITERATIONS,
    FactorModel,
    fit_factor_model,
    fold_in_predict,
    training_ratings,
)


def _frame(rows: list[tuple[str, str, float]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["reviewer", "movie", "score"])


def _review(item: str, score: float) -> ScoredReview:
    return ScoredReview(item_id=item, plot=f"plot of {item}", review="r", score=score)


def _record(
    reviewer: str, history: list[tuple[str, float]], target: tuple[str, float]
) -> PersonalReview:
    return PersonalReview(
        id=f"{reviewer}/{target[0]}",
        reviewer_id=reviewer,
        history=[_review(i, s) for i, s in history],
        target=_review(*target),
    )


# A full 3 x 3 matrix: rows u1..u3 = (2,4,6), (4,6,8), (6,8,10). mu = 6, every row and
# column mean is 4, 6 or 8. With reg = 1 and 3 ratings per row/column, the first pass
# gives b_i = 3/4 * (column mean - mu) = (-1.5, 0, 1.5); the reviewer residuals then sum
# b_i = 0 away, so b_u = 3/4 * (row mean - mu) = (-1.5, 0, 1.5), a fixed point.
FULL = _frame(
    [(f"u{u}", f"m{i}", float(2 * (u - 1) + 2 * i)) for u in (1, 2, 3) for i in (1, 2, 3)]
)


@pytest.fixture(scope="module")
def bias_model() -> FactorModel:
    return fit_factor_model(FULL, n_factors=0, reg=1.0)


# --------------------------------------------------------------------------------------
# training_ratings
# --------------------------------------------------------------------------------------


def test_training_ratings_counts_each_pair_once_with_history_and_targets_sorted() -> None:
    records = [
        _record("bob", [("m2", 5)], ("m1", 9)),
        _record("ann", [("m1", 4), ("m2", 6)], ("m3", 8)),
        _record("ann", [("m1", 4), ("m3", 6)], ("m4", 2)),  # m1 again; m3 now 6 (mean 7)
    ]
    frame = training_ratings(records)
    assert list(frame.columns) == ["reviewer", "movie", "score"]
    assert list(frame.itertuples(index=False, name=None)) == [
        ("ann", "m1", 4.0),
        ("ann", "m2", 6.0),
        ("ann", "m3", 7.0),
        ("ann", "m4", 2.0),
        ("bob", "m1", 9.0),
        ("bob", "m2", 5.0),
    ]
    assert frame["score"].dtype == float
    model = fit_factor_model(frame, n_factors=0)
    assert (model.reviewers, model.ratings) == (2, 6)


# --------------------------------------------------------------------------------------
# Biases (n_factors = 0)
# --------------------------------------------------------------------------------------


def test_bias_only_worked_example(bias_model: FactorModel) -> None:
    assert bias_model.global_mean == pytest.approx(6.0)
    assert bias_model.reg == 1.0
    assert bias_model.n_factors == 0
    assert bias_model.movie_factors == {}
    assert bias_model.movie_bias == pytest.approx({"m1": -1.5, "m2": 0.0, "m3": 1.5})
    assert (bias_model.reviewers, bias_model.ratings) == (3, 9)


def test_bias_only_reg_zero_gives_mean_offsets() -> None:
    model = fit_factor_model(FULL, n_factors=0, reg=0.0)
    assert model.movie_bias == pytest.approx({"m1": -2.0, "m2": 0.0, "m3": 2.0})


def _reference_biases(
    rows: list[tuple[str, str, float]], reg: float, iterations: int
) -> tuple[float, dict[str, float], dict[str, float]]:
    """The alternating regularised means written out in plain Python."""
    mu = sum(s for _, _, s in rows) / len(rows)
    b_u = {u: 0.0 for u, _, _ in rows}
    b_i = {i: 0.0 for _, i, _ in rows}
    for _ in range(iterations):
        b_i = {
            i: sum(s - mu - b_u[u] for u, j, s in rows if j == i)
            / (reg + sum(1 for _, j, _ in rows if j == i))
            for i in b_i
        }
        b_u = {
            u: sum(s - mu - b_i[i] for v, i, s in rows if v == u)
            / (reg + sum(1 for v, _, _ in rows if v == u))
            for u in b_u
        }
    return mu, b_u, b_i


SPARSE = [
    ("a", "x", 8.0),
    ("a", "y", 6.0),
    ("b", "x", 4.0),
    ("b", "z", 2.0),
    ("c", "y", 9.0),
    ("c", "z", 5.0),
    ("d", "z", 7.0),
]


def test_biases_on_a_sparse_matrix_match_the_alternating_equations() -> None:
    mu, b_u, b_i = _reference_biases(SPARSE, reg=1.0, iterations=BIAS_ITERATIONS)
    model = fit_factor_model(_frame(SPARSE), n_factors=0, reg=1.0)
    assert model.global_mean == pytest.approx(41 / 7)
    assert model.movie_bias == pytest.approx(b_i)
    # Near the fixed point: b_i solves its own equation given b_u.
    for movie, bias in model.movie_bias.items():
        rated = [(u, s) for u, i, s in SPARSE if i == movie]
        expected = sum(s - mu - b_u[u] for u, s in rated) / (1.0 + len(rated))
        assert bias == pytest.approx(expected, abs=1e-3)
    # A reviewer bias equal to the reference shows up in a fold-in of that reviewer.
    known = model.for_movies(["x", "y"])
    pred, cold = fold_in_predict(known, [("x", 8.0), ("y", 6.0)], "x", 1, 10)
    assert not cold
    assert pred == pytest.approx(mu + b_u["a"] + b_i["x"])


def test_regularisation_shrinks_biases() -> None:
    loose = fit_factor_model(_frame(SPARSE), n_factors=0, reg=0.0)
    tight = fit_factor_model(_frame(SPARSE), n_factors=0, reg=50.0)
    for movie in loose.movie_bias:
        assert abs(tight.movie_bias[movie]) < abs(loose.movie_bias[movie])
        assert abs(tight.movie_bias[movie]) < 0.2


# --------------------------------------------------------------------------------------
# fold_in_predict
# --------------------------------------------------------------------------------------


def test_fold_in_bias_only_worked_example(bias_model: FactorModel) -> None:
    """b_u = ((3 - 6 + 1.5) + (5 - 6 - 0)) / (1 + 2) = -5/6; m3: 6 - 5/6 + 1.5."""
    factors = bias_model.for_movies(["m1", "m2", "m3"])
    pred, cold = fold_in_predict(factors, [("m1", 3.0), ("m2", 5.0)], "m3", 1, 10)
    assert pred == pytest.approx(6 - 5 / 6 + 1.5)
    assert cold is False


def test_fold_in_cold_start_is_mu_plus_reviewer_bias(bias_model: FactorModel) -> None:
    factors = bias_model.for_movies(["m1", "m2", "unseen"])
    pred, cold = fold_in_predict(factors, [("m1", 3.0), ("m2", 5.0)], "unseen", 1, 10)
    assert cold is True
    assert pred == pytest.approx(6 - 5 / 6)


def test_fold_in_history_story_unknown_to_the_fit_counts_with_zero_bias(
    bias_model: FactorModel,
) -> None:
    factors = bias_model.for_movies(["m1", "zz", "m3"])
    pred, _ = fold_in_predict(factors, [("m1", 3.0), ("zz", 7.0)], "m3", 1, 10)
    assert pred == pytest.approx(6 + (-1.5 + 1.0) / 3 + 1.5)


def test_fold_in_predictions_are_clipped(bias_model: FactorModel) -> None:
    factors = bias_model.for_movies(["m1", "m2", "m3"])
    high = [("m1", 10.0), ("m3", 10.0)]  # b_u = (5.5 + 2.5) / 3 = 8/3
    assert fold_in_predict(factors, high, "m3", 1, 10) == (10.0, False)  # 10.17 unclipped
    assert fold_in_predict(factors, high, "m2", 1, 10)[0] == pytest.approx(6 + 8 / 3)
    assert fold_in_predict(factors, high, "cold", 1, 8) == (8.0, True)  # 8.67 unclipped
    low = [("m1", 1.0), ("m2", 1.0)]  # b_u = -8.5 / 3; m1: 6 - 2.83 - 1.5 = 1.67
    assert fold_in_predict(factors, low, "m1", 2, 9) == (2.0, False)


def test_fold_in_without_history_is_mu_plus_story_bias(bias_model: FactorModel) -> None:
    factors = bias_model.for_movies(["m3"])
    assert fold_in_predict(factors, [], "m3", 1, 10) == (pytest.approx(7.5), False)
    assert fold_in_predict(factors, [], "unseen", 1, 10) == (pytest.approx(6.0), True)


# A rank-1 full matrix r = mu + a_u + b_i + x_u * v_i with a, b, x, v summing to 0: with
# reg = 0 the biases are exact and the residual is x v^T, so the single SVD factor q_i is
# v_i up to scale and sign.
_A = [-1.0, 1.0, -0.5, 0.5, 0.0, 0.0]
_B = [-1.0, 1.0, 0.5, -0.5, 0.2, -0.2]
_X = [0.5, -0.5, 0.25, -0.25, 0.75, -0.75]
_V = [1.0, -1.0, 2.0, -2.0, 0.5, -0.5]
RANK_ONE = _frame(
    [(f"u{u}", f"m{i}", 5.5 + _A[u] + _B[i] + _X[u] * _V[i]) for u in range(6) for i in range(6)]
)


@pytest.fixture(scope="module")
def rank_one_model() -> FactorModel:
    return fit_factor_model(RANK_ONE, n_factors=1, reg=0.0, seed=0)


def test_rank_one_fit_recovers_biases_and_factor_direction(rank_one_model: FactorModel) -> None:
    model = rank_one_model
    assert model.n_factors == 1
    assert model.global_mean == pytest.approx(5.5)
    assert [model.movie_bias[f"m{i}"] for i in range(6)] == pytest.approx(_B)
    q = np.array([model.movie_factors[f"m{i}"][0] for i in range(6)])
    assert abs(pearsonr(q, _V).statistic) == pytest.approx(1.0)
    # scaled by sqrt of the singular value |x| * |v|
    singular = np.linalg.norm(_X) * np.linalg.norm(_V)
    assert np.linalg.norm(q) == pytest.approx(np.sqrt(singular))


def test_fold_in_recovers_a_reviewer_the_model_explains(rank_one_model: FactorModel) -> None:
    """A new reviewer (c = 0.8, loading 0.6 per unit of v) scores m0..m3 exactly as the
    model says; their v sums to 0, so b_u is c and the ridge finds the loading."""
    c, p = 0.8, 0.6
    history = [(f"m{i}", 5.5 + c + _B[i] + p * _V[i]) for i in range(4)]
    factors = rank_one_model.for_movies([f"m{i}" for i in range(6)])
    for target in (4, 5):
        pred, cold = fold_in_predict(factors, history, f"m{target}", 1, 10)
        assert not cold
        assert pred == pytest.approx(5.5 + c + _B[target] + p * _V[target], abs=1e-6)


def test_fold_in_without_history_ignores_factors(rank_one_model: FactorModel) -> None:
    factors = rank_one_model.for_movies(["m4"])
    assert fold_in_predict(factors, [], "m4", 1, 10)[0] == pytest.approx(5.5 + _B[4])


def test_factors_regularised_fold_in_is_shrunk(rank_one_model: FactorModel) -> None:
    """The same reviewer through a copy of the factors with reg = 5: b_u and p_u shrink."""
    c, p = 0.8, 0.6
    history = [(f"m{i}", 5.5 + c + _B[i] + p * _V[i]) for i in range(4)]
    exact = rank_one_model.for_movies([f"m{i}" for i in range(6)])
    shrunk = exact.model_copy(update={"reg": 5.0})
    free = fold_in_predict(exact, history, "m4", 1, 10)[0]
    tight = fold_in_predict(shrunk, history, "m4", 1, 10)[0]
    baseline = 5.5 + _B[4]
    assert abs(tight - baseline) < abs(free - baseline)


# --------------------------------------------------------------------------------------
# The fit: rank, determinism, what it is fitted on
# --------------------------------------------------------------------------------------


def _synthetic(seed: int, reviewers: int = 60, stories: int = 30, per: int = 8) -> pd.DataFrame:
    """Ratings with story and reviewer biases, a rank-2 interaction and noise, rounded."""
    rng = np.random.default_rng(seed)
    b_i = rng.normal(0, 1.5, stories)
    b_u = rng.normal(0, 0.7, reviewers)
    p = rng.normal(0, 1.0, (reviewers, 2))
    q = rng.normal(0, 1.0, (stories, 2))
    rows = []
    for u in range(reviewers):
        for i in rng.choice(stories, per, replace=False):
            raw = 5.5 + b_u[u] + b_i[i] + p[u] @ q[i] + rng.normal(0, 0.5)
            rows.append((f"u{u:02d}", f"m{i:02d}", float(np.clip(np.rint(raw), 1, 10))))
    return _frame(rows)


def test_rank_is_capped_by_the_matrix() -> None:
    model = fit_factor_model(FULL, n_factors=10, reg=1.0)
    assert model.n_factors == 2  # stories - 1
    assert all(len(v) == 2 for v in model.movie_factors.values())
    factors = model.for_movies(["m1"])
    assert factors.n_factors == 2 and len(factors.movies["m1"].factors) == 2


def test_fit_is_deterministic_for_a_seed() -> None:
    data = _synthetic(1)
    first = fit_factor_model(data, n_factors=4, reg=2.0, seed=7)
    second = fit_factor_model(data.copy(), n_factors=4, reg=2.0, seed=7)
    assert first.movie_bias == second.movie_bias
    assert first.movie_factors.keys() == second.movie_factors.keys()
    for movie, vector in first.movie_factors.items():
        np.testing.assert_array_equal(vector, second.movie_factors[movie])
    movies = sorted(first.movie_bias)
    history = [(movies[0], 3.0), (movies[1], 8.0), (movies[2], 6.0)]
    predictions = [
        fold_in_predict(model.for_movies(movies), history, movie, 1, 10)
        for model in (first, second)
        for movie in movies[3:]
    ]
    assert predictions[: len(movies) - 3] == predictions[len(movies) - 3 :]


def test_fit_does_not_depend_on_row_order() -> None:
    data = _synthetic(1)
    first = fit_factor_model(data, n_factors=4, reg=2.0, seed=7)
    shuffled = fit_factor_model(data.sample(frac=1.0, random_state=3), n_factors=4, reg=2.0, seed=7)
    assert shuffled.movie_bias == pytest.approx(first.movie_bias, abs=1e-12)
    for movie, vector in first.movie_factors.items():
        np.testing.assert_allclose(shuffled.movie_factors[movie], vector, atol=1e-9)


def test_for_movies_keeps_known_stories_only_and_extra_ids_change_nothing() -> None:
    model = fit_factor_model(_synthetic(2), n_factors=3, reg=2.0, seed=0)
    known = ["m03", "m07", "m11"]
    base = model.for_movies(known)
    extended = model.for_movies(["valid-only-1", *known, "m03", "valid-only-2"])
    assert base == extended
    assert list(base.movies) == known
    assert base.movies["m07"] == MovieFactors(
        bias=model.movie_bias["m07"], factors=[float(v) for v in model.movie_factors["m07"]]
    )
    assert (base.global_mean, base.reg, base.n_factors) == (model.global_mean, 2.0, 3)
    assert (base.reviewers, base.ratings) == (60, model.ratings)


def test_per_mpst_task_fits_on_training_reviewers_only() -> None:
    """Every sample's factors come from the training split; a story that only validation
    reviewers scored is unknown (cold start), and the counts exclude validation rows."""
    from inspect_plural.sources.perse import load_per_mpst, split_by_reviewer
    from inspect_plural.tasks.perse import per_mpst

    parts = split_by_reviewer(load_per_mpst(demo=True, k=3), "auto", 0.1, 42)
    train_frame = training_ratings(parts.train)
    model = fit_factor_model(train_frame, n_factors=10, reg=5.0, seed=42)
    everyone = training_ratings([*parts.train, *parts.valid])
    assert len(everyone) > len(train_frame)

    task = per_mpst(demo=True, method="matrix_factorization")
    assert len(task.dataset) == len(parts.valid)
    assert not {r.reviewer_id for r in parts.valid} & set(train_frame["reviewer"])
    train_movies = set(train_frame["movie"])
    cold_targets = 0
    for sample, record in zip(task.dataset, parts.valid):
        assert sample.id == record.id
        metadata = sample.metadata or {}
        got = TrainingFactors.model_validate(metadata["training_factors"])
        ids = [*(h.item_id for h in record.history), record.target.item_id]
        assert got == model.for_movies(ids)
        assert got.reviewers == train_frame["reviewer"].nunique()
        assert got.ratings == len(train_frame)
        assert set(got.movies) == set(ids) & train_movies
        cold_targets += record.target.item_id not in got.movies
    assert cold_targets >= 1  # the demo has a story only validation reviewers scored


def _held_out_correlations(
    data: pd.DataFrame, n_factors: int, held_out: int = 12, prior: int = 5
) -> tuple[float, float]:
    valid = sorted(data["reviewer"].unique())[:held_out]
    train = data[~data["reviewer"].isin(valid)]
    model = fit_factor_model(train, n_factors=n_factors, reg=2.0, seed=0)
    mf: list[float] = []
    average: list[float] = []
    gold: list[float] = []
    for reviewer in valid:
        rows = data[data["reviewer"] == reviewer]
        history = list(zip(rows["movie"][:prior], rows["score"][:prior]))
        factors = model.for_movies(rows["movie"])
        for movie, score in zip(rows["movie"][prior:], rows["score"][prior:]):
            mf.append(fold_in_predict(factors, history, movie, 1, 10)[0])
            average.append(float(np.mean([s for _, s in history])))
            gold.append(score)
    return float(pearsonr(mf, gold).statistic), float(pearsonr(average, gold).statistic)


def test_synthetic_recovery_beats_the_prior_average() -> None:
    """60 reviewers x 30 stories, 8 ratings each; 12 held-out reviewers folded in from 5
    prior ratings, scored on their other 3 (36 pairs)."""
    data = _synthetic(0)
    mf, average = _held_out_correlations(data, n_factors=3)
    assert mf > 0.5
    assert mf > average + 0.2
    biases_only, _ = _held_out_correlations(data, n_factors=0)
    assert mf > biases_only  # the latent factors add to the biases


# --------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------


def test_empty_ratings_raise() -> None:
    with pytest.raises(ValueError, match="no"):
        fit_factor_model(_frame([]))
    with pytest.raises(ValueError):
        fit_factor_model(training_ratings([]))


@pytest.mark.parametrize(("n_factors", "reg"), [(-1, 1.0), (2, -0.5)])
def test_negative_options_raise(n_factors: int, reg: float) -> None:
    with pytest.raises(ValueError, match="negative"):
        fit_factor_model(FULL, n_factors=n_factors, reg=reg)
