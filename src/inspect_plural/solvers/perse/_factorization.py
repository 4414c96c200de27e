"""Reviewer x story matrix factorisation, the Per-MPST baseline of PERSE §4.2.

The model is Koren, Bell and Volinsky's (2009) biased factorisation
``r(u, i) = mu + b_u + b_i + p_u . q_i``, fitted on the *training* reviewers' full
histories (every story each of them scored, prior reviews and targets alike):

1. ``mu`` is the mean training score; the biases ``b_i`` and ``b_u`` are the regularised
   alternating means of the residuals (``reg`` shrinks them towards 0);
2. the story factors ``q_i`` come from scikit-learn's ``TruncatedSVD`` of the sparse
   reviewer x story matrix of residuals ``r - mu - b_u - b_i`` (unrated cells are 0,
   the "PureSVD" reading of the factorisation), scaled by the square root of the
   singular values.

Validation reviewers are never in the fit (PERSE: they are unseen). Their own part is
folded in from their k prior reviews alone: ``b_u`` is the regularised mean residual of
those scores, and ``p_u`` the ridge regression (scikit-learn ``Ridge``, no intercept,
``alpha=reg``) of the remaining residuals on the factors of the prior stories the fit
knows. A target story no training reviewer scored has no ``b_i`` or ``q_i``: the
prediction is then ``mu + b_u`` and is flagged ``cold_start``. Predictions are clipped
to the score scale.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from inspect_plural.records import MovieFactors, PersonalReview, TrainingFactors

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "FactorModel",
    "fit_factor_model",
    "fold_in_predict",
    "training_ratings",
]

BIAS_ITERATIONS = 10
"""Alternating passes over the story and reviewer biases."""

FloatArray = npt.NDArray[np.float64]


def training_ratings(records: Iterable[PersonalReview]) -> pd.DataFrame:
    """Every (reviewer, story, score) in the records' prior reviews and targets.

    A story a reviewer scored in several records counts once (its mean score).

    Args:
        records: The training reviewers' records.

    Returns:
        A frame with columns ``reviewer``, ``movie`` and ``score``, sorted.
    """
    import pandas as pd

    rows = [
        (record.reviewer_id, review.item_id, review.score)
        for record in records
        for review in (*record.history, record.target)
    ]
    frame = pd.DataFrame(rows, columns=["reviewer", "movie", "score"])
    means = frame.groupby(["reviewer", "movie"], sort=True)["score"].mean()
    result: pd.DataFrame = pd.DataFrame(
        {
            "reviewer": means.index.get_level_values("reviewer"),
            "movie": means.index.get_level_values("movie"),
            "score": means.to_numpy(dtype=float),
        }
    )
    return result


@dataclass(frozen=True)
class FactorModel:
    """A fitted factorisation: what it learnt about each training story.

    Attributes:
        global_mean: ``mu``.
        reg: The regularisation of the biases and of the fold-in.
        movie_bias: Story id -> ``b_i``.
        movie_factors: Story id -> ``q_i`` (length ``n_factors``).
        n_factors: Latent factors (0 when the data is too small for any: biases only).
        reviewers: Training reviewers.
        ratings: Distinct training ratings.

    """

    global_mean: float
    reg: float
    movie_bias: dict[str, float]
    movie_factors: dict[str, FloatArray]
    n_factors: int
    reviewers: int
    ratings: int

    def for_movies(self, movie_ids: Iterable[str]) -> TrainingFactors:
        """What a sample needs: the fitted values of the stories it shows or asks about.

        Args:
            movie_ids: The sample's story ids (a story the fit does not know is left out).

        Returns:
            The training factors, for the sample's metadata.
        """
        movies = {
            movie: MovieFactors(
                bias=self.movie_bias[movie],
                factors=[float(v) for v in self.movie_factors.get(movie, np.zeros(0))],
            )
            for movie in dict.fromkeys(movie_ids)
            if movie in self.movie_bias
        }
        return TrainingFactors(
            global_mean=self.global_mean,
            n_factors=self.n_factors,
            reviewers=self.reviewers,
            ratings=self.ratings,
            reg=self.reg,
            movies=movies,
        )


def fit_factor_model(
    ratings: pd.DataFrame, n_factors: int = 10, reg: float = 5.0, seed: int = 42
) -> FactorModel:
    """Fit biases and story factors on training ratings.

    Args:
        ratings: Columns ``reviewer``, ``movie``, ``score`` (see :func:`training_ratings`).
        n_factors: Latent factors (fewer when the matrix is smaller).
        reg: Regularisation of the biases (and of the later fold-in).
        seed: Seed of the randomised SVD.

    Returns:
        The fitted model.

    Raises:
        ValueError: No ratings, or a negative ``n_factors`` or ``reg``.
    """
    import pandas as pd
    from scipy.sparse import csr_matrix
    from sklearn.decomposition import TruncatedSVD

    if ratings.empty:
        raise ValueError("matrix factorisation needs training ratings; there are none")
    if n_factors < 0 or reg < 0:
        raise ValueError("n_factors and reg must not be negative")
    users, user_ids = pd.factorize(ratings["reviewer"], sort=True)
    items, item_ids = pd.factorize(ratings["movie"], sort=True)
    scores = ratings["score"].to_numpy(dtype=float)
    mu = float(scores.mean())
    n_users, n_items = len(user_ids), len(item_ids)
    user_count = np.bincount(users, minlength=n_users)
    item_count = np.bincount(items, minlength=n_items)
    b_u = np.zeros(n_users)
    b_i = np.zeros(n_items)
    for _ in range(BIAS_ITERATIONS):
        b_i = np.bincount(items, weights=scores - mu - b_u[users], minlength=n_items) / (
            reg + item_count
        )
        b_u = np.bincount(users, weights=scores - mu - b_i[items], minlength=n_users) / (
            reg + user_count
        )
    residual = scores - mu - b_u[users] - b_i[items]
    rank = min(n_factors, n_items - 1, n_users)
    factors: dict[str, FloatArray] = {}
    if rank >= 1:
        matrix = csr_matrix((residual, (users, items)), shape=(n_users, n_items))
        svd = TruncatedSVD(n_components=rank, random_state=seed).fit(matrix)
        q = svd.components_.T * np.sqrt(svd.singular_values_)
        factors = {str(movie): q[j] for j, movie in enumerate(item_ids)}
    return FactorModel(
        global_mean=mu,
        reg=float(reg),
        movie_bias={str(movie): float(b_i[j]) for j, movie in enumerate(item_ids)},
        movie_factors=factors,
        n_factors=max(rank, 0),
        reviewers=n_users,
        ratings=len(ratings),
    )


def fold_in_predict(
    factors: TrainingFactors,
    history: Sequence[tuple[str, float]],
    target: str,
    low: float,
    high: float,
) -> tuple[float, bool]:
    """Predict an unseen reviewer's score of ``target`` from their prior scores.

    Args:
        factors: The fitted values of the sample's stories.
        history: The reviewer's prior (story id, score) pairs.
        target: The story to score.
        low: Lowest score (predictions are clipped).
        high: Highest score.

    Returns:
        The prediction, and whether the target was unknown to the fit (cold start).
    """
    from sklearn.linear_model import Ridge

    mu, reg = factors.global_mean, factors.reg
    movies = factors.movies

    def bias(movie: str) -> float:
        return movies[movie].bias if movie in movies else 0.0

    residuals = [score - mu - bias(movie) for movie, score in history]
    b_u = sum(residuals) / (reg + len(history)) if history else 0.0
    known = [(movie, score) for movie, score in history if movie in movies]
    p_u = np.zeros(factors.n_factors)
    if known and factors.n_factors > 0:
        q = np.array([movies[movie].factors for movie, _ in known], dtype=float)
        y = np.array([score - mu - b_u - bias(movie) for movie, score in known])
        p_u = Ridge(alpha=max(reg, 1e-9), fit_intercept=False).fit(q, y).coef_
    cold = target not in movies
    prediction = mu + b_u
    if not cold:
        prediction += movies[target].bias
        if factors.n_factors > 0:
            prediction += float(np.dot(p_u, np.asarray(movies[target].factors, dtype=float)))
    return float(np.clip(prediction, low, high)), cold
