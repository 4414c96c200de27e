"""The summary figure: per mode, each model's headline with its interval and chance level."""

from __future__ import annotations

from pathlib import Path

from inspect_plural.profile._cells import MODES
from inspect_plural.profile._results import Profile
from inspect_plural.profile._text import SHORT

__all__ = ["draw_summary"]


def draw_summary(profile: Profile, path: Path) -> Path:
    """Draw one panel per mode: a point and 95% interval per model, chance as a cross.

    Args:
        profile: The profile.
        path: The PNG file to write.

    Returns:
        The path written.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    models = profile.models
    height = 1.2 + 0.45 * max(len(models), 1)
    fig, axes = plt.subplots(1, len(MODES), figsize=(13, height), sharey=True)
    for ax, mode in zip(axes, MODES):
        results = profile.summary.get(mode, {})
        for y, model in enumerate(models):
            r = results.get(model)
            if r is None or r.estimate is None:
                ax.text(
                    0.5,
                    y,
                    "not measured",
                    ha="center",
                    va="center",
                    fontsize=8,
                    transform=ax.get_yaxis_transform(),
                )
                continue
            if r.has_interval:
                low, high = r.low or r.estimate, r.high or r.estimate
                ax.errorbar(
                    r.estimate,
                    y,
                    xerr=[[r.estimate - low], [high - r.estimate]],
                    fmt="o",
                    color="C0",
                    capsize=3,
                )
            else:
                ax.plot(r.estimate, y, "o", color="C0", fillstyle="none")
            if r.chance is not None:
                ax.plot(r.chance, y, "x", color="C3", markersize=8)
        metric = next(iter({r.metric for r in results.values()}), "")
        ax.set_title(f"{SHORT[mode]}\n{metric}", fontsize=9)
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(range(len(models)))
    # a model name is text, never matplotlib's mathtext ($...$)
    axes[0].set_yticklabels([m.replace("$", r"\$") for m in models], fontsize=8)
    axes[0].set_ylim(-0.6, len(models) - 0.4)
    axes[0].invert_yaxis()
    title = "Pluralism profile: estimate and 95% interval (o), chance level (x)"
    fig.suptitle(("DEMO DATA - " if profile.demo else "") + title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
