"""Write the demo files of the Le-Wi-Di-layout datasets (HS-Brexit, MD-Agreement).

Every text is invented for inspect_plural and says so; the labels are drawn from a seeded
model in which each item has a latent severity and each annotator a bias (the HS-Brexit
target group is more sensitive), so that annotator-aware baselines beat chance.
Run from the repository root: ``python tools/make_demo_lewidi.py``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

DEMO = Path(__file__).resolve().parents[1] / "src" / "inspect_plural" / "demo"

TOPICS = [
    "the new bus timetable",
    "a referendum leaflet",
    "weekend football results",
    "rising rents in the city",
    "a local bakery closing",
    "queues at the border",
    "a televised debate",
    "school holiday dates",
    "a new cycling lane",
    "energy bills this winter",
    "a charity fun run",
    "parking fines in town",
]
TONES = [
    "a calm remark about",
    "a sarcastic joke about",
    "an angry complaint about",
    "a sweeping claim about",
    "a hostile rant about",
    "a question about",
]


def _text(rng: random.Random, number: int, kind: str) -> tuple[str, float]:
    tone = rng.randrange(len(TONES))
    topic = rng.choice(TOPICS)
    text = f"Demo {kind} {number} (invented for inspect_plural): {TONES[tone]} {topic}."
    severity = tone / (len(TONES) - 1) * 0.8 + rng.random() * 0.2
    return text, severity


def _label(rng: random.Random, severity: float, bias: float, threshold: float) -> int:
    return int(severity + bias + rng.gauss(0.0, 0.12) > threshold)


def _record(
    text: str, split: str, task: str, who: list[str], labels: list[int]
) -> dict[str, object]:
    ones = sum(labels) / len(labels)
    return {
        "text": text,
        "annotation task": task,
        "number of annotations": len(who),
        "annotations": ",".join(str(x) for x in labels),
        "annotators": ",".join(who),
        "lang": "en",
        "hard_label": str(int(ones > 0.5)),
        "soft_label": {"0": round(1 - ones, 2), "1": round(ones, 2)},
        "split": split,
    }


def brexit(seed: int = 7) -> None:
    rng = random.Random(seed)
    who = [f"Ann{i}" for i in range(1, 7)]
    bias = [0.15, 0.1, 0.2, -0.1, -0.05, -0.15]  # group1 (target) more sensitive
    sizes = {"train": 84, "dev": 18, "test": 18}
    for split, size in sizes.items():
        data = {}
        for i in range(1, size + 1):
            text, severity = _text(rng, i, f"{split} tweet")
            hs = [_label(rng, severity, b, 0.75) for b in bias]
            aggressive = [_label(rng, severity, b, 0.65) for b in bias]
            offensive = [_label(rng, severity, b, 0.55) for b in bias]
            record = _record(text, split, "hate speech detection", who, hs)
            record["other_info"] = {
                "other annotations": {
                    "aggressive language detection": ",".join(map(str, aggressive)),
                    "offensive language detection": ",".join(map(str, offensive)),
                },
                "annotators group": "group1,group1,group1,group2,group2,group2",
                "group1": "target group",
                "group2": "control group",
            }
            data[str(i)] = record
        path = DEMO / "brexit" / f"HS-Brexit_{split}.json"
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def md_agreement(seed: int = 11) -> None:
    rng = random.Random(seed)
    pool = [f"Ann{i}" for i in rng.sample(range(1, 900), 30)]
    bias = {a: rng.uniform(-0.2, 0.2) for a in pool}
    domains = ["BLM", "Election2020", "Covid-19"]
    sizes = {"train": 84, "dev": 18, "test": 18}
    turn = 0
    for split, size in sizes.items():
        data = {}
        for i in range(1, size + 1):
            text, severity = _text(rng, i, f"{split} post")
            who = [pool[(turn + j) % len(pool)] for j in range(5)]
            turn += 5
            labels = [_label(rng, severity, bias[a], 0.6) for a in who]
            record = _record(text, split, "offensiveness detection", who, labels)
            record["other_info"] = {"domain": rng.choice(domains)}
            data[str(i)] = record
        path = DEMO / "md_agreement" / f"MD-Agreement_{split}.json"
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    brexit()
    md_agreement()
