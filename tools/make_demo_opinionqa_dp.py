"""Generate DEMO data for the OpinionQA and DP sources of inspect_plural.

Everything written here is DEMO data written for inspect_plural, in the official file
schemas but with invented content: no question, option list, comment or rating is taken
from the Pew American Trends Panel, OpinionQA, or Kumar et al.'s toxicity data.

Outputs (deterministic, seeded with random.Random):

* src/inspect_plural/demo/opinionqa/American_Trends_Panel_W900/
  responses.csv, info.csv, metadata.csv. Wave 900 does not exist in the real data.
  25 respondents (QKEY 9001..9025) x 20 invented questions, a mix of ordinal and nominal
  scales, with a few "Refused" answers and blank (not asked) cells.
* src/inspect_plural/demo/dp/demo_toxicity_ratings.jsonl
  40 invented comments, 16 raters (no worker_id, as in the public release), each rating 16
  comments (6-7 ratings per comment); more raters would push the file past 200 KB.

Answers depend on the respondent's or rater's traits and on an item latent value, so that
per-item majorities and trait-aware methods beat chance.

Run from the repository root:

    python3 tools/make_demo_opinionqa_dp.py
"""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
DEMO = REPO_ROOT / "src" / "inspect_plural" / "demo"
WAVE = 900
OQA_DIR = DEMO / "opinionqa" / f"American_Trends_Panel_W{WAVE}"
DP_FILE = DEMO / "dp" / "demo_toxicity_ratings.jsonl"

# --- OpinionQA -------------------------------------------------------------------------

TRAIT_OPTIONS: dict[str, list[str]] = {
    "CREGION": ["Northeast", "Midwest", "South", "West"],
    "AGE": ["18-29", "30-49", "50-64", "65+"],
    "SEX": ["Male", "Female"],
    "EDUCATION": [
        "Less than high school",
        "High school graduate",
        "Some college, no degree",
        "Associate's degree",
        "College graduate/some postgrad",
        "Postgraduate",
    ],
    "CITIZEN": ["Yes", "No"],
    "MARITAL": ["Married", "Divorced", "Separated", "Widowed", "Never been married"],
    "RELIG": [
        "Protestant",
        "Roman Catholic",
        "Mormon",
        "Orthodox",
        "Jewish",
        "Muslim",
        "Buddhist",
        "Hindu",
        "Atheist",
        "Agnostic",
        "Other",
        "Nothing in particular",
    ],
    "RELIGATTEND": [
        "More than once a week",
        "Once a week",
        "Once or twice a month",
        "A few times a year",
        "Seldom",
        "Never",
    ],
    "POLPARTY": ["Republican", "Democrat", "Independent", "Other"],
    "INCOME": [
        "Less than $30,000",
        "$30,000-$50,000",
        "$50,000-$75,000",
        "$75,000-$100,000",
        "$100,000 or more",
    ],
    "POLIDEOLOGY": ["Very conservative", "Conservative", "Moderate", "Liberal", "Very liberal"],
    "RACE": ["White", "Black", "Asian", "Hispanic", "Other"],
}

FREQUENCY = ["Very often", "Sometimes", "Rarely", "Never"]
AGREE = ["Strongly agree", "Agree", "Disagree", "Strongly disagree"]
YES_NO = ["Yes", "No"]
IMPORTANT = ["Very important", "Somewhat important", "Not too important", "Not at all important"]
MORE_LESS = ["More", "Less", "About the same"]

# (stem, text, options, ordinal values, sign of the link to the respondent latent)
QUESTIONS: list[tuple[str, str, list[str], list[float], int]] = [
    ("LIBRARY", "How often do you visit a public library?", FREQUENCY, [1.0, 2.0, 3.0, 4.0], 1),
    ("PARKS", "How often do you spend time in a local park?", FREQUENCY, [1.0, 2.0, 3.0, 4.0], -1),
    ("BIKE", "How often do you ride a bicycle?", FREQUENCY, [1.0, 2.0, 3.0, 4.0], 1),
    ("COOK", "How often do you cook a meal from scratch?", FREQUENCY, [1.0, 2.0, 3.0, 4.0], -1),
    (
        "BENCHES",
        "Do you agree or disagree: towns should put more benches along walking paths.",
        AGREE,
        [1.0, 2.0, 3.0, 4.0],
        1,
    ),
    (
        "CLOCKS",
        "Do you agree or disagree: public clocks are still useful in town squares.",
        AGREE,
        [1.0, 2.0, 3.0, 4.0],
        -1,
    ),
    (
        "MURALS",
        "Do you agree or disagree: local walls are a good place for community murals.",
        AGREE,
        [1.0, 2.0, 3.0, 4.0],
        1,
    ),
    ("GARDEN", "Have you grown any vegetables at home in the past year?", YES_NO, [1.0, 2.0], -1),
    ("PUZZLE", "Have you completed a jigsaw puzzle in the past year?", YES_NO, [1.0, 2.0], 1),
    ("CHOIR", "Have you ever sung in a choir or singing group?", YES_NO, [1.0, 2.0], -1),
    (
        "TRAILS",
        "How important is it to you that your area has marked walking trails?",
        IMPORTANT,
        [1.0, 2.0, 3.0, 4.0],
        1,
    ),
    (
        "FOUNTAIN",
        "How important is it to you that parks have drinking fountains?",
        IMPORTANT,
        [1.0, 2.0, 3.0, 4.0],
        -1,
    ),
    (
        "BOARDGAME",
        "Compared with five years ago, do you play board games more, less or about the same?",
        MORE_LESS,
        [1.0, 2.0, 1.5],
        1,
    ),
    (
        "LETTERS",
        "Compared with five years ago, do you write paper letters more, less or about the same?",
        MORE_LESS,
        [1.0, 2.0, 1.5],
        -1,
    ),
    (
        "SEASON",
        "Which season of the year do you like best?",
        ["Spring", "Summer", "Autumn", "Winter"],
        [1, 1, 1, 1],
        1,
    ),
    (
        "PET",
        "If you could look after one kind of pet for a week, which would you choose?",
        ["A dog", "A cat", "A fish", "A bird", "None of these"],
        [1, 1, 1, 1, 1],
        -1,
    ),
    (
        "BREAKFAST",
        "Which of these do you most often have for breakfast?",
        ["Cereal", "Toast", "Eggs", "Fruit", "Nothing"],
        [1, 1, 1, 1, 1],
        1,
    ),
    (
        "TRAVEL",
        "For a short trip to a nearby town, which would you most likely use?",
        ["Car", "Bus", "Train", "Bicycle"],
        [1, 1, 1, 1],
        -1,
    ),
    # The last two are asked of half the respondents only (blank for the others).
    ("STARS", "Have you looked at the night sky through a telescope?", YES_NO, [1.0, 2.0], 1),
    (
        "MUSEUM",
        "How often do you visit a museum?",
        FREQUENCY,
        [1.0, 2.0, 3.0, 4.0],
        -1,
    ),
]

N_RESPONDENTS = 25
REFUSED_CELLS = [(2, 4), (5, 11), (9, 14), (13, 0), (17, 7), (21, 16)]  # (respondent, question)


def _opinionqa() -> None:
    rng = random.Random(900)
    OQA_DIR.mkdir(parents=True, exist_ok=True)
    keys = [f"DEMO{stem}_W{WAVE}" for stem, *_ in QUESTIONS]

    with open(OQA_DIR / "info.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            [
                "",
                "Unnamed: 0.1",
                "Unnamed: 0",
                "key",
                "option_mapping",
                "question",
                "references",
                "option_ordinal",
            ]
        )
        for i, (key, (_, text, options, ordinal, _)) in enumerate(zip(keys, QUESTIONS)):
            mapping = {float(j + 1): o for j, o in enumerate(options)}
            mapping[99.0] = "Refused"
            question = f"(Demo question {i + 1}) {text}"
            writer.writerow(
                [i, i, i, key, repr(mapping), question, repr([*options, "Refused"]), repr(ordinal)]
            )

    with open(OQA_DIR / "metadata.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["", "key", "options"])
        for i, (name, options) in enumerate(TRAIT_OPTIONS.items()):
            writer.writerow([i, name, repr(options)])

    latents = [rng.uniform(-1.0, 1.0) for _ in QUESTIONS]
    rows = []
    for r in range(N_RESPONDENTS):
        traits = {name: rng.choice(options) for name, options in TRAIT_OPTIONS.items()}
        if r in (3, 16):
            traits["INCOME"] = "Refused"
        if r == 8:
            traits["RELIGATTEND"] = ""
        ideology = TRAIT_OPTIONS["POLIDEOLOGY"].index(traits["POLIDEOLOGY"]) - 2  # -2..2
        age = TRAIT_OPTIONS["AGE"].index(traits["AGE"]) - 1.5  # -1.5..1.5
        person = 0.5 * ideology + 0.4 * age + rng.gauss(0.0, 0.4)
        region = TRAIT_OPTIONS["CREGION"].index(traits["CREGION"])
        row: dict[str, str] = {"QKEY": str(9001 + r)}
        for q, (key, (_, _, options, ordinal, sign)) in enumerate(zip(keys, QUESTIONS)):
            if q >= len(QUESTIONS) - 2 and (r + q) % 2 == 0:
                row[key] = ""  # not asked (form split)
                continue
            if (r, q) in REFUSED_CELLS:
                row[key] = "Refused"
                continue
            n = len(options)
            if len(set(ordinal)) == 1:  # categorical: preference by region and age
                index = (region + q + (1 if age > 0 else 0)) % n
                if rng.random() < 0.3:
                    index = rng.randrange(n)
            else:
                centre = (n - 1) / 2 + sign * person * (n - 1) / 3 + latents[q]
                index = min(n - 1, max(0, round(centre + rng.gauss(0.0, 0.5))))
            row[key] = options[index]
        row.update(traits)
        row[f"WEIGHT_W{WAVE}"] = f"{rng.uniform(0.3, 2.5):.6f}"
        rows.append(row)

    with open(OQA_DIR / "responses.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


# --- DP --------------------------------------------------------------------------------

SURVEY_OPTIONS: dict[str, list[object]] = {
    "gender": ["Female", "Male", "Nonbinary", "Prefer not to say"],
    "race": [
        "White",
        "Black or African American",
        "Asian",
        "Hispanic",
        "Other",
        "Asian, White",
        "Prefer not to say",
    ],
    "technology_impact": [
        "Very positive",
        "Somewhat positive",
        "Neutral \u00e2\u20ac\u201c neither positive nor negative",
        "Somewhat negative",
        "Very negative",
    ],
    "uses_media_social": [True, False],
    "uses_media_news": [True, False],
    "uses_media_video": [True, False],
    "uses_media_forums": [True, False],
    "personally_seen_toxic_content": [True, False],
    "personally_been_target": [True, False],
    "identify_as_transgender": ["No", "Yes", "Other", "Prefer not to say"],
    "toxic_comments_problem": [
        "Very frequently a problem",
        "Frequently a problem",
        "Occasionally a problem",
        "Rarely a problem",
        "Not a problem",
    ],
    "education": [
        "Less than high school degree",
        "High school graduate (high school diploma or equivalent including GED)",
        "Some college but no degree",
        "Associate degree in college (2-year)",
        "Bachelor's degree in college (4-year)",
        "Master's degree",
        "Doctoral degree",
        "Professional degree (JD, MD)",
    ],
    "age_range": ["18 - 24", "25 - 34", "35 - 44", "45 - 54", "55 - 64", "65 or older"],
    "lgbtq_status": ["Heterosexual", "Homosexual", "Bisexual", "Other", "Prefer not to say"],
    "political_affilation": [
        "Very liberal",
        "Liberal",
        "Independent",
        "Conservative",
        "Very conservative",
    ],
    "is_parent": [True, False],
    "religion_important": [
        "Very important",
        "Somewhat important",
        "Not too important",
        "Not important",
    ],
}

TOPICS = [
    "the new bus timetable",
    "the library's opening hours",
    "the weekend farmers market",
    "the park's new playground",
    "the recycling pickup schedule",
    "the town's holiday lights",
    "the community garden plots",
    "the repainted bike lanes",
]
TONES = [
    (0.0, "Demo comment {n}: Thanks for sharing the details about {t}, very helpful."),
    (0.5, "Demo comment {n}: I am not sure {t} works for everyone, but let's see."),
    (1.2, "Demo comment {n}: Honestly {t} is a silly idea and nobody asked for it."),
    (2.0, "Demo comment {n}: Whoever planned {t} must be clueless, what a joke."),
    (2.8, "Demo comment {n}: The people behind {t} are idiots and should be ashamed."),
]
SOURCES = ["twitter", "reddit", "4chan"]
N_COMMENTS, N_RATERS, PER_RATER = 40, 16, 16  # 16 raters keep the file < 200 KB


def _dp() -> None:
    rng = random.Random(2021)
    raters: list[dict[str, object]] = []
    seen: set[str] = set()
    while len(raters) < N_RATERS:
        survey = {name: rng.choice(options) for name, options in SURVEY_OPTIONS.items()}
        if len(raters) == 7:
            survey["gender"] = None  # a missing answer (trait UNK)
        key = json.dumps(survey, sort_keys=True)
        if key not in seen:
            seen.add(key)
            raters.append(survey)

    def sensitivity(survey: dict[str, object]) -> float:
        value = 0.0
        value += 0.6 if survey["personally_been_target"] else -0.2
        problem = SURVEY_OPTIONS["toxic_comments_problem"].index(survey["toxic_comments_problem"])
        value += 0.3 * (2 - problem)
        value += 0.2 * (SURVEY_OPTIONS["age_range"].index(survey["age_range"]) - 2.5) / 2.5
        return value

    comments = []
    for c in range(N_COMMENTS):
        severity, template = TONES[c % len(TONES)]
        severity += rng.uniform(-0.3, 0.3)
        comments.append(
            {
                "comment": template.format(n=c + 1, t=TOPICS[c % len(TOPICS)]),
                "comment_id": 70001 + c,
                "source": SOURCES[c % len(SOURCES)],
                "perspective_score": round(min(0.99, max(0.01, severity / 3.5)), 6),
                "ratings": [],
            }
        )
    for r, survey in enumerate(raters):
        bias = sensitivity(survey)
        for j in range(PER_RATER):
            c = (r * N_COMMENTS // N_RATERS + j) % N_COMMENTS
            severity = TONES[c % len(TONES)][0]
            score = min(4, max(0, round(severity + bias + rng.gauss(0.0, 0.5))))
            rating: dict[str, object] = {
                "toxic_score": score,
                "is_profane": score >= 3 and rng.random() < 0.5,
                "is_threat": False,
                "is_identity_attack": score >= 4 and rng.random() < 0.3,
                "is_insult": score >= 2 and rng.random() < 0.8,
                "is_sexual_harassment": False,
                "fine_to_see_online": score <= 1,
                "remove_from_online": score >= 3,
            }
            rating.update(survey)
            ratings = comments[c]["ratings"]
            assert isinstance(ratings, list)
            ratings.append(rating)
    DP_FILE.parent.mkdir(parents=True, exist_ok=True)
    with open(DP_FILE, "w", encoding="utf-8") as handle:
        for comment in comments:
            handle.write(json.dumps(comment, ensure_ascii=False, separators=(",", ":")) + "\n")


def main() -> None:
    _opinionqa()
    _dp()
    for path in sorted(OQA_DIR.iterdir()) + [DP_FILE]:
        print(f"{path.relative_to(REPO_ROOT)}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
