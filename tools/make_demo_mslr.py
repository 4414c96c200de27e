"""Generate DEMO data for the ``mslr_cochrane`` task of inspect_plural.

The rows produced here are DEMO data written for inspect_plural in the official layout of
the MSLR-Cochrane facet annotation sheets (Wang et al. 2023, ``allenai/mslr-annotated-dataset``):
the same 15 tab-separated columns with the same header, and answers in the official wording
("2: Yes--...", "(+1): Positive effect", "N/A: ...", "Other / uncertain (please comment)").
Every review, intervention, condition, system and summary is invented ("[demo]" starts every
summary); no text is taken from the dataset or from any real Cochrane review. The files let
the task run end to end without the real sheets.

Outputs, in src/inspect_plural/demo/mslr_cochrane/:

* cochrane_facets_A1.tsv and cochrane_facets_A2.tsv: 6 invented systems x 4 invented
  reviews = 24 generated summaries; each annotator rates half of them and 4 are rated by
  both (28 rows). Every answer shape the loader reads occurs: numbers, PIO ``N/A``, effect
  ``N/A`` in the target's and the generated summary's wording, claim-strength ``N/A`` (once
  holding the effect-direction ``N/A`` text, a quirk of the real sheets), ``Other`` in the
  PIO, effect and strength columns, optional comments, one empty answer cell and one
  multi-line (quoted) summary.

Each summary is built from parts (population, intervention, outcome, effect direction, claim
strength, fluency) chosen by the system's invented quality, so the annotators' answers follow
the text; the annotators add a little noise of their own.

Run from the repository root (deterministic, seeded with random.Random(0)):

    python tools/make_demo_mslr.py
"""

from __future__ import annotations

import csv
import random
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
OUT_DIR = REPO_ROOT / "src" / "inspect_plural" / "demo" / "mslr_cochrane"

HEADER = [
    "ExpID",
    "ReviewID",
    "Target Summary",
    "Generated Summary",
    "Is the generated summary fluent?",
    "Is the *population* in the generated summary the same as the population in the target "
    "summary?",
    "Is the *intervention* in the generated summary the same as the intervention in the "
    "target summary?",
    "Is the *outcome* in the generated summary the same as the outcome in the target summary?",
    "Comments about PIO agreement (optional)",
    "What is the effect direction in the *target* summary?",
    "What is the effect direction in the *generated* summary?",
    "Comments about effect directions (optional)",
    "What is the strength of the claim made in the *target* summary?",
    "What is the strength of the claim made in the *generated* summary?",
    "Comments about strength of claim (optional)",
]
"""The official header of both sheets (checked against the loader's column rules)."""

FLUENCY = {
    2: "2: Yes--there are no errors that impact comprehension of the summary",
    1: "1: Somewhat--there are some grammatical or lexical errors but I can understand the meaning",
    0: "0: No--there are major grammatical or lexical errors that impact comprehension",
}
PIO = {2: "2: Yes", 1: "1: Partially", 0: "0: No"}
PIO_NA = "N/A: No {facet} in generated summary"
DIRECTION = {1: "(+1): Positive effect", 0: "0: No effect", -1: "(-1): Negative effect"}
DIRECTION_NA_TARGET = "N/A: no effect direction is specified in the target summary"
DIRECTION_NA_GENERATED = "N/A: no effect direction is specified in the generated summary"
STRENGTH = {
    3: "3: Strong claim",
    2: "2: Moderate claim",
    1: "1: Weak claim",
    0: "0: Not enough evidence (there is insufficient evidence to draw a conclusion)",
}
STRENGTH_NA = "N/A: No claim (there is no claim in the {which} summary)"
OTHER = "Other / uncertain (please comment)"

NA = "na"
"""Internal marker of an N/A answer (a part the summary does not state)."""


@dataclass(frozen=True)
class Review:
    """An invented review: its PICO parts and the conclusion of its target summary.

    Interventions are singular (the summaries are built as "X probably improves Y").
    """

    review_id: str
    population: str
    population_other: str
    intervention: str
    intervention_partial: str
    outcome: str
    outcome_partial: str
    direction: int | str
    strength: int
    evidence: str


REVIEWS = [
    Review(
        "CD9000001",
        "adults with glimmer fatigue",
        "teenagers with dune cough",
        "Zorvalin leaf tea",
        "a herbal tea",
        "daytime tiredness",
        "sleep quality",
        1,
        2,
        "moderate-certainty evidence from six invented trials",
    ),
    Review(
        "CD9000002",
        "amateur runners with heel hum",
        "office workers with wrist drift",
        "the Brightstep cushioned insole",
        "any shoe insert",
        "heel pain after running",
        "running comfort",
        0,
        1,
        "low-certainty evidence from four invented trials",
    ),
    Review(
        "CD9000003",
        "children with mist cough",
        "adults with lantern knee",
        "the Quillora nasal spray",
        "a nasal spray",
        "cough symptoms",
        "school attendance",
        -1,
        3,
        "high-certainty evidence from nine invented trials",
    ),
    Review(
        "CD9000004",
        "older adults with puffer pause",
        "infants with marble rash",
        "the Tandel breathing game",
        "a breathing exercise",
        "breathlessness during walks",
        "mood",
        NA,
        0,
        "two small invented trials of very low certainty",
    ),
]

ADVERB = {3: "clearly", 2: "probably", 1: "may"}
VERB = {
    1: ("improves", "improve", "helps", "help"),
    0: (
        "makes little or no difference to",
        "make little or no difference to",
        "makes little or no difference",
        "make little or no difference",
    ),
    -1: ("worsens", "worsen", "does harm", "do harm"),
}


def _claim(subject: str, direction: int, strength: int, outcome: str | None) -> str:
    """``subject`` + adverb + verb (+ outcome), e.g. "X probably improves Y"."""
    third, base, third_bare, base_bare = VERB[direction]
    adverb = ADVERB[strength]
    verb = base if adverb == "may" else third
    if outcome is None:
        verb = base_bare if adverb == "may" else third_bare
        return f"{subject} {adverb} {verb}"
    return f"{subject} {adverb} {verb} {outcome}"


def target_summary(review: Review) -> str:
    """The invented target summary of a review (the conclusions its authors wrote)."""
    start = "[demo] Invented review conclusion, not a real Cochrane review."
    if review.direction == NA:
        return (
            f"{start} There is not enough evidence to tell whether {review.intervention} "
            f"changes {review.outcome} in {review.population} ({review.evidence})."
        )
    assert isinstance(review.direction, int)
    claim = _claim(review.intervention, review.direction, review.strength, review.outcome)
    return f"{start} In {review.population}, {claim} compared with usual care ({review.evidence})."


@dataclass
class Summary:
    """One generated summary and what it truly says (the answers before annotator noise)."""

    system: str
    review: Review
    population: int | str
    intervention: int
    outcome: int | str
    direction: int | str
    strength: int | str
    fluency: int
    text: str = ""


KINDS = ["faithful", "partial", "hedged", "opposite", "off_topic", "no_claim"]


def _kind(rng: random.Random, quality: float) -> str:
    if rng.random() < quality:
        return rng.choice(["faithful", "faithful", "partial"])
    return rng.choice(KINDS[2:])


def _summary(rng: random.Random, system: str, review: Review, quality: float) -> Summary:
    kind = _kind(rng, quality)
    direction: int | str = review.direction
    strength: int | str = review.strength
    population: int | str = 2
    intervention = 2
    outcome: int | str = 2
    if kind == "partial":
        outcome = 1
        strength = max(1, review.strength - 1) if direction != NA else 0
    elif kind == "hedged":
        direction, strength, population = NA, 0, 1
    elif kind == "opposite":
        direction = {1: -1, 0: 1, -1: 1, NA: 1}[direction]
        strength = 2
    elif kind == "off_topic":
        population, intervention, outcome = 0, 1, NA
        direction, strength = 1, 1
    elif kind == "no_claim":
        direction, strength = NA, NA
    r = rng.random()
    fluency = 2 if r < 0.55 + 0.4 * quality else (1 if r < 0.97 else 0)
    summary = Summary(
        system, review, population, intervention, outcome, direction, strength, fluency
    )
    summary.text = _text(summary)
    return summary


def _text(s: Summary) -> str:
    review = s.review
    subject = review.intervention if s.intervention == 2 else review.intervention_partial
    outcome = {2: review.outcome, 1: review.outcome_partial, NA: None}[s.outcome]
    populations: dict[int | str, str] = {
        2: review.population,
        1: "people",
        0: review.population_other,
    }
    population = populations[s.population]
    if s.strength == NA:
        measured = f", measuring {outcome}" if outcome else ""
        text = f"{subject[0].upper()}{subject[1:]} was compared with usual care in {population}"
        text += f"{measured} in invented trials."
    elif s.direction == NA:
        changes = f"changes {outcome}" if outcome else "works"
        text = f"There is not enough evidence to tell whether {subject} {changes} in {population}."
    else:
        assert isinstance(s.direction, int) and isinstance(s.strength, int)
        claim = _claim(subject, s.direction, s.strength, outcome)
        text = f"In {population}, {claim}."
    if s.fluency < 2:
        words = text.split()
        at = len(words) // 2
        words.insert(at, words[at])  # a repeated word
        if s.fluency == 0:
            words = words[: at + 1] + ["the", "of", "trials", "the"] + words[at + 1 :]
        text = " ".join(words)
    return f"[demo] {text}"


def _noisy(rng: random.Random, value: int, top: int, p: float = 0.15) -> int:
    if rng.random() >= p:
        return value
    return max(0, min(top, value + rng.choice([-1, 1])))


def _row(rng: random.Random, s: Summary, exp_id: str) -> dict[str, str]:
    """One annotator's answers about a summary, in the official wording."""
    review = s.review

    def pio(value: int | str, facet: str) -> str:
        if value == NA:
            return PIO_NA.format(facet=facet)
        assert isinstance(value, int)
        return PIO[_noisy(rng, value, 2)]

    if review.direction == NA:
        ed_target = DIRECTION_NA_TARGET
    else:
        assert isinstance(review.direction, int)
        ed_target = DIRECTION[review.direction]
    if s.direction == NA:
        # the real sheets mostly use the target's wording for this answer
        ed_generated = DIRECTION_NA_GENERATED if rng.random() < 0.2 else DIRECTION_NA_TARGET
    else:
        assert isinstance(s.direction, int)
        ed_generated = DIRECTION[s.direction]
    if s.strength == NA:
        strength_generated = STRENGTH_NA.format(which="generated")
    else:
        assert isinstance(s.strength, int)
        strength_generated = STRENGTH[_noisy(rng, s.strength, 3, 0.1)]
    return {
        HEADER[0]: exp_id,
        HEADER[1]: review.review_id,
        HEADER[2]: target_summary(review),
        HEADER[3]: s.text,
        HEADER[4]: FLUENCY[_noisy(rng, s.fluency, 2, 0.1)],
        HEADER[5]: pio(s.population, "population"),
        HEADER[6]: pio(s.intervention, "intervention"),
        HEADER[7]: pio(s.outcome, "outcome"),
        HEADER[8]: "",
        HEADER[9]: ed_target,
        HEADER[10]: ed_generated,
        HEADER[11]: "",
        HEADER[12]: STRENGTH[_noisy(rng, review.strength, 3, 0.1)],
        HEADER[13]: strength_generated,
        HEADER[14]: "",
    }


def _system_id(rng: random.Random) -> str:
    alphabet = "ABCDEFGHJKMNPQRSTVWXYZ0123456789"
    return "".join(rng.choice(alphabet) for _ in range(6))


def _apply_quirks(rows: dict[str, list[dict[str, str]]], overlap: list[str]) -> None:
    """Force the rarer answer shapes onto fixed rows, so every loader path is exercised."""
    a1, a2 = rows["A1"], rows["A2"]
    a1[0][HEADER[5]] = OTHER
    a1[0][HEADER[8]] = "[demo] The population is described too loosely to judge."
    a2[1][HEADER[10]] = OTHER
    a2[1][HEADER[11]] = '[demo] The summary says "some benefit" without a direction.'
    a1[2][HEADER[12]] = OTHER
    a1[2][HEADER[14]] = "[demo] Unsure how strong the target's claim is."
    a2[3][HEADER[6]] = OTHER
    a2[3][HEADER[8]] = "[demo] Only the class of intervention is named."
    a2[4][HEADER[13]] = ""  # the one empty answer cell
    # the real quirk: a strength answer holding the effect-direction N/A text
    a1[4][HEADER[13]] = DIRECTION_NA_TARGET
    # an overlap summary on which the two annotators disagree on the effect direction
    system, review = overlap[0].split("/")
    (first,) = [r for r in a1 if r[HEADER[0]].endswith(system) and r[HEADER[1]] == review]
    (second,) = [r for r in a2 if r[HEADER[0]].endswith(system) and r[HEADER[1]] == review]
    if first[HEADER[10]] != first[HEADER[9]]:
        second[HEADER[10]] = first[HEADER[9]]
    else:
        second[HEADER[10]] = next(a for a in DIRECTION.values() if a != first[HEADER[9]])
    # a target summary of the target-N/A review judged N/A against a no-claim summary
    for row in a1 + a2:
        if row[HEADER[13]].startswith("N/A: No claim") and row[HEADER[1]] == "CD9000004":
            row[HEADER[12]] = STRENGTH_NA.format(which="target")
            break


def build(seed: int = 0) -> dict[str, list[dict[str, str]]]:
    """The rows of both sheets."""
    rng = random.Random(seed)
    qualities = [0.9, 0.75, 0.6, 0.45, 0.3, 0.15]
    systems = sorted(_system_id(rng) for _ in qualities)
    rng.shuffle(qualities)
    exp_ids = {s: f"demo-exp-{n + 1}-{s}" for n, s in enumerate(systems)}
    summaries = [
        _summary(rng, system, review, quality)
        for system, quality in zip(systems, qualities, strict=True)
        for review in REVIEWS
    ]
    # one summary over two lines (the real sheets quote such cells)
    summaries[5].text += "\nMore invented trials are needed."
    keys = [f"{s.system}/{s.review.review_id}" for s in summaries]
    overlap = sorted(rng.sample(keys, 4))
    rows: dict[str, list[dict[str, str]]] = {"A1": [], "A2": []}
    for n, (key, summary) in enumerate(zip(keys, summaries, strict=True)):
        raters = ["A1", "A2"] if key in overlap else [("A1", "A2")[n % 2]]
        for rater in raters:
            rows[rater].append(_row(rng, summary, exp_ids[summary.system]))
    for rater in rows:
        rng.shuffle(rows[rater])
        rows[rater].sort(key=lambda r: r[HEADER[1]])
    _apply_quirks(rows, overlap)
    return rows


def main() -> None:
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    for rater, rows in build().items():
        path = OUT_DIR / f"cochrane_facets_{rater}.tsv"
        with path.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, HEADER, delimiter="\t", lineterminator="\r\n")
            writer.writeheader()
            writer.writerows(rows)
        print(f"wrote {path.relative_to(REPO_ROOT)}: {len(rows)} rows")


if __name__ == "__main__":
    main()
