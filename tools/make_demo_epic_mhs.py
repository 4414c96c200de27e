"""Generate DEMO data for the EPIC and MHS sources of inspect_plural.

The files produced here are DEMO data written for inspect_plural, in the official schemas:

* src/inspect_plural/demo/epic/EPICorpus.csv: the columns of EPIC's ``EPICorpus.csv``
  (post-reply pairs, ``label`` iro/not, annotator demographics);
* src/inspect_plural/demo/mhs/measuring-hate-speech.parquet: the 131 columns of the
  Measuring Hate Speech parquet (``hatespeech`` 0/1/2, demographics and all the others).

Every post, reply and comment is invented, neutral everyday text that starts with "Demo";
nothing is taken from the real datasets or papers. Ids imitate the official formats
(Prolific-style hex user ids and Reddit/Twitter ids for EPIC, integers for MHS).

Each file has 20 annotators and 40 items; every annotator labels 20 items. Labels are drawn
with seeded randomness from an item latent value, an annotator bias and a trait effect, so
per-annotator and per-group baselines beat chance. Run from the repository root (the output
is deterministic):

    python tools/make_demo_epic_mhs.py
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import pandas as pd

from inspect_plural.sources.epic import EPIC_COLUMNS
from inspect_plural.sources.mhs import (
    EDUCATION_VALUES,
    IDEOLOGY_VALUES,
    INCOME_VALUES,
    complete_mhs_frame,
)

REPO_ROOT = Path(__file__).resolve().parents[1]
DEMO = REPO_ROOT / "src" / "inspect_plural" / "demo"
N_ANNOTATORS = 20
N_ITEMS = 40
PER_ANNOTATOR = 20

TOPICS = [
    "the neighbourhood bakery",
    "the city library",
    "the weekend farmers market",
    "the new bus timetable",
    "the office coffee machine",
    "the community garden",
    "the local swimming pool",
    "the school bake sale",
    "the park's new benches",
    "the morning train",
    "the corner bookshop",
    "the village football club",
    "the building's lift",
    "the street festival",
    "the recycling schedule",
    "the cinema down the road",
    "the cycling lane",
    "the weather forecast",
    "the museum's late opening",
    "the apartment's heating",
]
EVENTS = [
    "changed its opening hours again",
    "announced a small price increase",
    "was closed for maintenance all week",
    "started a loyalty card scheme",
    "got a fresh coat of paint",
    "moved everything to an online booking system",
    "put up a sign asking for patience",
    "extended its hours for the holidays",
]
REPLIES = [
    "Great, exactly what I needed on a Monday.",
    "That is good news, I will go there tomorrow.",
    "Wonderful, another form to fill in.",
    "I had no idea, thanks for sharing.",
    "Perfect timing, as always.",
    "Nice, it looks much better now.",
    "Oh good, I was running out of reasons to stay home.",
    "Makes sense, they told us last month.",
]


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def _assignments(rng: random.Random) -> list[list[int]]:
    """The items each annotator labels: a balanced, seeded cover of all items."""
    order = list(range(N_ITEMS))
    chosen = []
    for a in range(N_ANNOTATORS):
        start = (a * PER_ANNOTATOR // 2) % N_ITEMS
        picks = [order[(start + k) % N_ITEMS] for k in range(PER_ANNOTATOR)]
        rng.shuffle(picks)
        chosen.append(picks)
    return chosen


def make_epic() -> Path:
    rng = random.Random(2023)
    varieties = [
        ("uk", "United Kingdom"),
        ("ie", "Ireland"),
        ("us", "United States"),
        ("au", "Australia"),
        ("in", "India"),
    ]
    nationality_effect = {"uk": 0.4, "ie": 0.2, "us": 0.0, "au": -0.2, "in": -0.4}
    generation_effect = {"Boomer": -0.6, "GenX": -0.2, "GenY": 0.2, "GenZ": 0.6}
    ethnicities = ["White", "Asian", "Black", "Mixed", "Other"]
    annotators = []
    for a in range(N_ANNOTATORS):
        variety, nation = varieties[a % len(varieties)]
        age: str = str(rng.randint(19, 70))
        if a == 7:
            age = "DATA_EXPIRED"  # as in the real file: a non-numeric age gives UNK
        annotators.append(
            {
                "user": f"{rng.getrandbits(96):024x}",
                "variety": variety,
                "Sex": "Female" if a % 2 == 0 else "Male",
                "Age": age,
                "Ethnicity simplified": ethnicities[a % len(ethnicities)],
                "Country of birth": nation,
                "Country of residence": nation,
                "Nationality": nation,
                "Student status": "Yes" if a % 3 == 0 else "No",
                "Employment status": ["Full-Time", "Part-Time", "Unemployed"][a % 3],
                "bias": rng.gauss(0, 1.6),
            }
        )
    items = []
    for i in range(N_ITEMS):
        if i < 25:
            reply_id = "demo" + "".join(
                rng.choice("abcdefghijklmnopqrstuvwxyz0123") for _ in range(4)
            )
            parent_id = "demo" + "".join(
                rng.choice("abcdefghijklmnopqrstuvwxyz0123") for _ in range(4)
            )
        else:
            reply_id = str(1_000_000_000_000_000_000 + rng.getrandbits(58))
            parent_id = str(1_000_000_000_000_000_000 + rng.getrandbits(58))
        topic = TOPICS[i % len(TOPICS)]
        event = EVENTS[(i * 3) % len(EVENTS)]
        items.append(
            {
                "id_original": reply_id,
                "parent_id_original": parent_id,
                "parent_text": f"Demo post {i}: Apparently {topic} {event}.",
                "text": f"Demo reply {i}: {REPLIES[(i * 5) % len(REPLIES)]}",
                "language_variety": varieties[i % len(varieties)][0],
                "latent": rng.gauss(0, 1.3),
            }
        )
    assert len({item["id_original"] for item in items}) == N_ITEMS
    rows = []
    for a, picks in enumerate(_assignments(rng)):
        person = annotators[a]
        try:
            years = int(person["Age"])
            generation = (
                "Boomer"
                if years >= 58
                else "GenX"
                if years >= 42
                else "GenY"
                if years >= 26
                else "GenZ"
            )
        except ValueError:
            generation = "GenY"
        for i in picks:
            item = items[i]
            logit = (
                item["latent"]
                + person["bias"]
                + nationality_effect[person["variety"]]
                + generation_effect[generation]
            )
            label = "iro" if rng.random() < _sigmoid(logit) else "not"
            rows.append({**item, **person, "label": label})
    frame = pd.DataFrame(rows)[EPIC_COLUMNS]
    out = DEMO / "epic" / "EPICorpus.csv"
    out.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(out, index=False)
    return out


def make_mhs() -> Path:
    rng = random.Random(2020)
    genders = ["female", "male", "female", "male", "non_binary"]
    education = list(EDUCATION_VALUES)
    incomes = list(INCOME_VALUES)
    ideologies = list(IDEOLOGY_VALUES)
    ideology_effect = {
        "extremely_conservative": -0.6,
        "conservative": -0.4,
        "slightly_conservative": -0.2,
        "neutral": 0.0,
        "no_opinion": 0.0,
        "slightly_liberal": 0.2,
        "liberal": 0.4,
        "extremely_liberal": 0.6,
    }
    annotator_ids = sorted(rng.sample(range(1, 11_000), N_ANNOTATORS))
    annotators = []
    for a, annotator_id in enumerate(annotator_ids):
        annotators.append(
            {
                "annotator_id": annotator_id,
                "annotator_gender": genders[a % len(genders)],
                "annotator_educ": education[(a * 3) % len(education)],
                # Missing answers, as in the real file: the dimension is then absent.
                "annotator_income": None if a == 4 else incomes[a % len(incomes)],
                "annotator_ideology": None if a == 9 else ideologies[(a * 5) % len(ideologies)],
                "annotator_age": float("nan") if a == 13 else float(rng.randint(18, 75)),
                "bias": rng.gauss(0, 1.3),
            }
        )
    comment_ids = sorted(rng.sample(range(1, 50_000), N_ITEMS))
    comments = [
        {
            "comment_id": comment_id,
            "text": (
                f"Demo comment {c}: {TOPICS[(c * 7) % len(TOPICS)].capitalize()} "
                f"{EVENTS[c % len(EVENTS)]}, and people keep talking about it."
            ),
            "latent": rng.gauss(0, 1.4),
        }
        for c, comment_id in enumerate(comment_ids)
    ]
    rows = []
    for a, picks in enumerate(_assignments(rng)):
        person = annotators[a]
        for i in picks:
            comment = comments[i]
            ideology = person["annotator_ideology"] or "neutral"
            value = comment["latent"] + person["bias"] + ideology_effect[ideology]
            value += rng.gauss(0, 0.5)
            hatespeech = 0.0 if value < -0.3 else 1.0 if value < 0.6 else 2.0
            rows.append(
                {
                    "comment_id": comment["comment_id"],
                    "annotator_id": person["annotator_id"],
                    "text": comment["text"],
                    "hatespeech": hatespeech,
                    **{k: v for k, v in person.items() if k.startswith("annotator_")},
                }
            )
    frame = complete_mhs_frame(pd.DataFrame(rows))
    out = DEMO / "mhs" / "measuring-hate-speech.parquet"
    out.parent.mkdir(parents=True, exist_ok=True)
    frame.to_parquet(out, index=False, engine="pyarrow")
    return out


if __name__ == "__main__":
    for path in (make_epic(), make_mhs()):
        print(f"wrote {path.relative_to(REPO_ROOT)} ({path.stat().st_size} bytes)")
