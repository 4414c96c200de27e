"""Generate DEMO data for the ``per_mpst`` and ``per_doc`` tasks of inspect_plural.

The rows produced here are DEMO data written for inspect_plural in the official layout of the
PERSE data (Wang et al., "Learning Personalized Story Evaluation", ``facebookresearch/PerSE``):
the same JSON Lines keys, the same fenced-JSON completions (with the trailing comma of the
Per-DOC choices) and the same structural markers in the prompts. Every movie, plot, review,
reviewer, premise, outline, annotator and every sentence of prompt prose is invented ("[demo]"
starts every movie title and every Per-DOC premise); no text is taken from the PERSE data, from
MPST, IMDb or DOC. The files let the tasks run end to end without the real data.

Outputs:

* src/inspect_plural/demo/per_mpst/PerMPST.k5.train.jsonl: 12 invented reviewers x 3 rows.
  Each row holds 5 history items and a target item (``examples``), the prompt rendering the
  history reviews and the target plot, and the target review + score as the completion.
* src/inspect_plural/demo/per_mpst/PerMPST.k5.valid.jsonl: 4 other reviewers x 3 rows, built
  the same way. Every valid target movie is rated in the train file, except for exactly one row
  (a cold-start movie that no train row mentions, for the matrix-factorisation baseline).
* src/inspect_plural/demo/per_doc/PerDOC.{I,A,S,C,E}.valid.jsonl: one file per aspect
  (Interestingness, Adaptability, Surprise, Character development, Ending); 3 invented
  annotators x 2 rows each. A row shows one example comparison of the annotator (two outlines
  of one premise and the annotator's choice), then a new pair of outlines of another premise;
  the completion is the annotator's choice. The Interestingness file repeats one ``idx`` and
  ``review_id`` with a different example comparison (a quirk of the real sample file).

Every file is JSON Lines, UTF-8, one compact object per line (no spaces after the separators,
as in the official files), newline-terminated.

Scores and choices follow invented tastes so that personalisation has something to learn:
each Per-MPST reviewer has a favourite and a disliked genre and a harshness offset, and each
movie an invented quality (scores = taste + small noise, clipped to 1..10; review wording
follows the score). Each Per-DOC annotator prefers one outline style (twisty, warm or brisk),
all dislike the flat style, and each aspect nudges the styles a little; choices add noise.

Run from the repository root (deterministic, seeded with random.Random(0)):

    python tools/make_demo_perse.py
"""

from __future__ import annotations

import json
import random
import string
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
MPST_DIR = REPO_ROOT / "src" / "inspect_plural" / "demo" / "per_mpst"
DOC_DIR = REPO_ROOT / "src" / "inspect_plural" / "demo" / "per_doc"

# --------------------------------------------------------------------------------------------
# Per-MPST
# --------------------------------------------------------------------------------------------

GENRES = ["sci-fi", "mystery", "horror", "comedy"]
GENRE_NOUN = {
    "sci-fi": "science-fiction film",
    "mystery": "mystery",
    "horror": "horror film",
    "comedy": "comedy",
}


@dataclass(frozen=True)
class Movie:
    """An invented movie: title, genre, short plot, a hook the reviews mention, a quality."""

    index: int
    title: str
    genre: str
    plot: str
    hook: str
    quality: float

    @property
    def movie_id(self) -> str:
        return f"demo-m{self.index:02d}"


_MOVIES: list[tuple[str, str, str, str, float]] = [
    (
        "The Orbit Gardener",
        "sci-fi",
        "A botanist on a failing space station grows the last crops from seeds she smuggled "
        "aboard. When the harvest vanishes, she must find the thief before the air runs low.",
        "the greenhouse",
        1.0,
    ),
    (
        "Signal From Lake Vess",
        "sci-fi",
        "A radio hobbyist hears a repeating call from under a frozen lake. She and her brother "
        "cut through the ice and find a craft that has waited there for centuries.",
        "the buried craft",
        0.5,
    ),
    (
        "Copper Tide",
        "sci-fi",
        "Mining robots on a distant moon stop obeying orders and start building something. "
        "The last engineer on duty has two days to learn what they want.",
        "the rebel robots",
        -0.5,
    ),
    (
        "The Long Commute",
        "sci-fi",
        "A courier on a generation ship carries letters between decks that stopped speaking "
        "decades ago. One unopened letter could end an old feud or start a new one.",
        "the letters",
        1.5,
    ),
    (
        "Paper Satellites",
        "sci-fi",
        "Teenagers launch a homemade satellite and get a reply the next morning. Government "
        "agents arrive, but the kids are determined to answer first.",
        "the homemade satellite",
        0.0,
    ),
    (
        "Ninth Moon Station",
        "sci-fi",
        "An inspector is sent to close a quiet research base on a remote moon. The staff insist "
        "it cannot be closed and refuse to say why.",
        "the secretive staff",
        -1.0,
    ),
    (
        "The Inkwell Affair",
        "mystery",
        "A retired typesetter spots a forged letter in the village newspaper. Her small inquiry "
        "uncovers a land swindle that reaches the mayor's office.",
        "the forged letter",
        1.0,
    ),
    (
        "Murder at Marrow Pier",
        "mystery",
        "A fishing town's regatta ends with the harbourmaster missing. A visiting cook with a "
        "sharp memory for faces works out who was on the pier that night.",
        "the regatta",
        0.5,
    ),
    (
        "The Clockmaker's Alibi",
        "mystery",
        "Every suspect in a jewel theft was seen near a broken town clock. A junior constable "
        "realises the clock was stopped on purpose.",
        "the stopped clock",
        1.5,
    ),
    (
        "Nine Keys to Larkhall",
        "mystery",
        "Nine heirs each receive one key to a locked manor. Only together can they open the "
        "vault, and one of them would rather nobody did.",
        "the nine keys",
        -0.5,
    ),
    (
        "The Quiet Librarian",
        "mystery",
        "A librarian finds coded notes tucked into overdue books. The code leads her to an old "
        "disappearance the town would rather forget.",
        "the coded notes",
        0.0,
    ),
    (
        "Fog Over Caddis Bay",
        "mystery",
        "A ferry docks with one passenger fewer than it left with. The ship's cook and a tired "
        "detective retrace the crossing hour by hour.",
        "the ferry crossing",
        -1.0,
    ),
    (
        "The Hollow Choir",
        "horror",
        "A choir rehearses in an old chapel where an unplaceable voice joins every hymn. The new "
        "conductor hunts for the singer before the winter concert.",
        "the extra voice",
        1.0,
    ),
    (
        "Beneath Saltmarsh House",
        "horror",
        "A family inherits a seaside house whose cellar floods at the same hour each night. The "
        "water leaves behind objects that belonged to people long gone.",
        "the flooding cellar",
        0.5,
    ),
    (
        "Night Shift at Kettle Lane",
        "horror",
        "A night nurse notices that every patient on one ward has the same dream. Each night "
        "the dream comes closer to the ward door.",
        "the shared dream",
        1.5,
    ),
    (
        "The Scarecrow Census",
        "horror",
        "A census taker visits a valley where each field has a scarecrow for every person who "
        "died there. This year there is one more scarecrow than there were funerals.",
        "the scarecrows",
        -0.5,
    ),
    (
        "Teeth of the Orchard",
        "horror",
        "Campers pitch their tents in an abandoned orchard where the fruit never rots. By the "
        "second night their food is gone and the trees stand closer.",
        "the orchard",
        -1.0,
    ),
    (
        "Static on Channel Four",
        "horror",
        "A late-night radio host takes a call from a listener who describes the studio in too "
        "much detail. The calls keep coming after the station goes off the air.",
        "the late-night calls",
        0.0,
    ),
    (
        "Two Weddings and a Goat",
        "comedy",
        "A wedding planner double-books a barn for two rival families. A goat with a taste for "
        "flowers makes the afternoon even harder.",
        "the goat",
        0.5,
    ),
    (
        "The Substitute Mayor",
        "comedy",
        "A clumsy baker becomes acting mayor after a clerical mix-up. He has one week to fix the "
        "town fountain and survive the summer parade.",
        "the accidental mayor",
        1.0,
    ),
    (
        "Grandma Goes Viral",
        "comedy",
        "A grandmother's cooking video becomes a sensation overnight. Her grandson tries to "
        "manage the fame while she insists on doing everything her way.",
        "the cooking videos",
        1.5,
    ),
    (
        "Lost in Aisle Nine",
        "comedy",
        "Two rival shop assistants get locked in a huge furniture store overnight. To get out "
        "by morning they must cooperate for the first time.",
        "the furniture store",
        0.0,
    ),
    (
        "The Worst Heist Ever",
        "comedy",
        "Three retired magicians plan to steal back a trophy they lost years ago. Every step of "
        "the plan goes wrong in a new and spectacular way.",
        "the retired magicians",
        -0.5,
    ),
    (
        "Parking Wars",
        "comedy",
        "Neighbours on a narrow street turn a quarrel over one parking space into a summer-long "
        "campaign. The council sends its most timid official to settle it.",
        "the parking feud",
        -1.0,
    ),
]

MOVIES = [
    Movie(n + 1, f"[demo] {title}", genre, plot, hook, quality)
    for n, (title, genre, plot, hook, quality) in enumerate(_MOVIES)
]

# Review wording by score band: (headlines, bodies); ``{hook}`` is the movie's hook.
REVIEW_BANDS: dict[str, tuple[list[str], list[str]]] = {
    "rave": (
        ["A small marvel", "Loved every minute", "One of the year's best"],
        [
            "{Hook} is handled with real care and the finale earns its emotion.",
            "I was gripped from start to finish; {hook} alone is worth the ticket.",
        ],
    ),
    "good": (
        ["Solid and satisfying", "Well worth a watch", "Better than I expected"],
        [
            "{Hook} works well, even if the middle drags a little.",
            "A confident {genre} with a few memorable scenes built around {hook}.",
        ],
    ),
    "mixed": (
        ["Fine but forgettable", "Half a good film", "Uneven"],
        [
            "{Hook} is a neat idea that the script never quite develops.",
            "Some scenes work, others fall flat, and {hook} deserved more time.",
        ],
    ),
    "poor": (
        ["A missed opportunity", "Hard to sit through", "Not for me"],
        [
            "{Hook} is wasted on flat dialogue and a plodding pace.",
            "I lost interest long before the story got round to {hook}.",
        ],
    ),
    "awful": (
        ["A chore from start to finish", "Avoid", "Deeply disappointing"],
        [
            "Nothing about {hook} made sense and the ending was worse.",
            "Dull, muddled and far too long; not even {hook} could save it.",
        ],
    ),
}
FAN_LINE = "Just the kind of {genre} I love."
DISLIKE_LINE = "I rarely enjoy a {genre}."


@dataclass(frozen=True)
class Reviewer:
    """An invented reviewer: a handle and a taste (favourite / disliked genre, harshness)."""

    name: str
    favourite: str
    disliked: str
    offset: float


def _band(score: int) -> str:
    if score >= 9:
        return "rave"
    if score >= 7:
        return "good"
    if score >= 5:
        return "mixed"
    if score >= 3:
        return "poor"
    return "awful"


def _score(rng: random.Random, reviewer: Reviewer, movie: Movie) -> int:
    taste = 1.5 if movie.genre == reviewer.favourite else 0.0
    taste -= 1.5 if movie.genre == reviewer.disliked else 0.0
    raw = 5.5 + movie.quality + taste + reviewer.offset + rng.gauss(0.0, 0.7)
    return max(1, min(10, round(raw)))


def _review(rng: random.Random, reviewer: Reviewer, movie: Movie, score: int) -> str:
    """A short review in the official shape "headline ||| body"; its tone follows the score."""
    headlines, bodies = REVIEW_BANDS[_band(score)]
    genre = GENRE_NOUN[movie.genre]
    body = rng.choice(bodies).format(
        hook=movie.hook, Hook=movie.hook[0].upper() + movie.hook[1:], genre=genre
    )
    if movie.genre == reviewer.favourite and score >= 6 and rng.random() < 0.6:
        body += " " + FAN_LINE.format(genre=genre)
    elif movie.genre == reviewer.disliked and score <= 5 and rng.random() < 0.6:
        body += " " + DISLIKE_LINE.format(genre=genre)
    return f"{rng.choice(headlines)} ||| {body}"


MPST_QUESTION = (
    "[User Question] (demo) Each plot below is followed by the review and the 1-10 score that "
    "one film critic gave it. Work out what this critic enjoys and dislikes, then write the "
    'review and score they would most likely give the last plot, as JSON with the keys "Review" '
    'and "Score".'
)


def _history_block(i: int, item: dict[str, Any]) -> str:
    review = json.dumps(item["clean_review"], ensure_ascii=False)
    return (
        f"[The Start of Plot {i}]\n{item['summ_plot']}\n[The End of Plot {i}]\n[Review]\n"
        f'```json\n{{\n  "Review": {review},\n  "Score": {item["score"]}\n}}\n```\n\n'
    )


def mpst_prompt(examples: list[dict[str, Any]]) -> str:
    """The rendered prompt: the history items with their reviews, then the target plot."""
    *history, target = examples
    blocks = "".join(_history_block(i, item) for i, item in enumerate(history))
    return (
        f"{MPST_QUESTION}\n\n{blocks}[The Start of Plot]\n{target['summ_plot']}\n[The End of Plot]"
    )


def mpst_completion(item: dict[str, Any]) -> str:
    """The target review and score, fenced as in the official files."""
    review = json.dumps(item["clean_review"], ensure_ascii=False)
    return f'```json{{  "Review": {review},  "Score": {item["score"]}}}```'


def _item(rng: random.Random, reviewer: Reviewer, movie: Movie) -> dict[str, Any]:
    score = _score(rng, reviewer, movie)
    return {
        "reviewer_name": reviewer.name,
        "movie_index": movie.index,
        "movie_id": movie.movie_id,
        "movie_title": movie.title,
        "summ_plot": movie.plot,
        "clean_review": _review(rng, reviewer, movie, score),
        "score": score,
    }


def _reviewers(rng: random.Random, count: int) -> list[Reviewer]:
    handles = [f"demo-critic-{n:02d}" for n in range(1, count + 1)]
    rng.shuffle(handles)
    offsets = [-2.0, -1.0, 0.0, 1.0, 2.0]
    reviewers = []
    for n, handle in enumerate(handles):
        favourite = GENRES[n % len(GENRES)]
        disliked = rng.choice([g for g in GENRES if g != favourite])
        reviewers.append(Reviewer(handle, favourite, disliked, rng.choice(offsets)))
    return reviewers


def _rows(rng: random.Random, reviewer: Reviewer, movies: list[Movie]) -> list[dict[str, Any]]:
    """Three rows of one reviewer: history = their first 5 movies, targets = the last 3."""
    items = [_item(rng, reviewer, movie) for movie in movies]
    rows = []
    for target in items[5:]:
        examples = [*items[:5], target]
        rows.append(
            {
                "examples": examples,
                "idx": 0,
                "review_index": 0,
                "prompt": [mpst_prompt(examples)],
                "completion": mpst_completion(target),
            }
        )
    return rows


def build_mpst(rng: random.Random) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The train and valid rows (train reviewers and valid reviewers are disjoint)."""
    reviewers = _reviewers(rng, 16)
    train_reviewers, valid_reviewers = reviewers[:12], reviewers[12:]
    cold = rng.choice(MOVIES)
    warm_pool = [m for m in MOVIES if m is not cold]
    train: list[dict[str, Any]] = []
    train_watched: dict[int, set[str]] = {}
    for reviewer in train_reviewers:
        movies = rng.sample(warm_pool, 8)
        for movie in movies:
            train_watched.setdefault(movie.index, set()).add(reviewer.name)
        train += _rows(rng, reviewer, movies)
    covered = [m for m in warm_pool if m.index in train_watched]
    valid: list[dict[str, Any]] = []
    cold_reviewer = rng.randrange(len(valid_reviewers))
    for n, reviewer in enumerate(valid_reviewers):
        if n == cold_reviewer:
            movies = rng.sample(covered, 7)
            movies.insert(5 + rng.randrange(3), cold)
        else:
            movies = rng.sample(covered, 8)
        valid += _rows(rng, reviewer, movies)
    for rows in (train, valid):
        for number, row in enumerate(rows, start=1):
            row["idx"] = number
    _check_mpst(train, valid, cold)
    return train, valid


def _check_mpst(train: list[dict[str, Any]], valid: list[dict[str, Any]], cold: Movie) -> None:
    train_names = {r["examples"][0]["reviewer_name"] for r in train}
    valid_names = {r["examples"][0]["reviewer_name"] for r in valid}
    assert len(train_names) == 12 and len(valid_names) == 4 and not train_names & valid_names
    train_movies = {e["movie_id"] for r in train for e in r["examples"]}
    cold_rows = [r for r in valid if r["examples"][-1]["movie_id"] not in train_movies]
    assert len(cold_rows) == 1 and cold_rows[0]["examples"][-1]["movie_id"] == cold.movie_id
    assert len({r["examples"][-1]["score"] for r in valid}) > 1
    priors = [[e["score"] for e in r["examples"][:5]] for r in valid]
    assert any(len(set(scores)) > 1 for scores in priors)
    for row in train + valid:
        assert len({e["movie_id"] for e in row["examples"]}) == 6


# --------------------------------------------------------------------------------------------
# Per-DOC
# --------------------------------------------------------------------------------------------

ASPECTS = ["I", "A", "S", "C", "E"]
STYLES = ["twist", "warm", "brisk", "flat"]
# How much each aspect favours each style (added to every annotator's own taste).
ASPECT_BONUS: dict[str, dict[str, float]] = {
    "I": {},
    "A": {"brisk": 0.3},
    "S": {"twist": 1.0},
    "C": {"warm": 1.0},
    "E": {"warm": 0.4, "twist": 0.3, "flat": -0.5},
}


@dataclass(frozen=True)
class Premise:
    """An invented story premise with the parts the outline templates fill in."""

    premise: str
    setting: str
    hero_role: str
    ally_role: str
    goal: str
    obstacle: str
    thing: str
    home: str
    away: str


PREMISES = [
    Premise(
        "[demo] A lighthouse keeper finds a sealed letter addressed to her and dated fifty "
        "years from now.",
        "A windswept island with one lighthouse and a tiny harbour.",
        "keeps the island lighthouse",
        "flies the weekly mail plane",
        "find out who wrote the letter",
        "a storm that cuts the island off",
        "the sealed letter",
        "the lamp room",
        "the harbour",
    ),
    Premise(
        "[demo] A pastry chef discovers that one of her recipes makes people tell the truth.",
        "A busy market town with a bakery on its main square.",
        "runs the corner bakery",
        "writes for the town paper",
        "keep the recipe secret",
        "a rival baker who wants the recipe",
        "the recipe card",
        "the bakery kitchen",
        "the town square",
    ),
    Premise(
        "[demo] A retired astronaut teaches a class of teenagers who secretly built a rocket.",
        "A dusty desert town next to a closed launch site.",
        "once flew to the moon",
        "is the class's quietest student",
        "stop the launch before it goes wrong",
        "a sandstorm that grounds every vehicle",
        "the rocket",
        "the school workshop",
        "the old launch pad",
    ),
    Premise(
        "[demo] A night-train conductor realises the same passenger boards every night but never "
        "leaves.",
        "A sleeper train crossing snowy mountains.",
        "conducts the night train",
        "cleans the dining car",
        "learn who the passenger is",
        "an avalanche that blocks the line",
        "the passenger's ticket",
        "the guard's van",
        "the dining car",
    ),
    Premise(
        "[demo] Two estranged sisters inherit a failing circus and must run it for one season.",
        "A travelling circus touring small coastal towns.",
        "trained as an acrobat",
        "keeps the circus accounts",
        "save the circus from closing",
        "a debt collector following the tour",
        "the circus deed",
        "the big top",
        "the seaside fairground",
    ),
    Premise(
        "[demo] A museum guard notices that a painting changes slightly every morning.",
        "A grand old museum in a rainy capital city.",
        "guards the east gallery",
        "restores paintings",
        "find out why the painting changes",
        "a curator who wants to sell the painting",
        "the changing painting",
        "the east gallery",
        "the restoration studio",
    ),
    Premise(
        "[demo] A beekeeper's hives start to arrange themselves into a message.",
        "A hillside farm above a quiet river valley.",
        "keeps bees on the hill farm",
        "studies insects at the college",
        "decode the message",
        "a frost that threatens the hives",
        "the hive pattern",
        "the apiary",
        "the college lab",
    ),
    Premise(
        "[demo] A young cartographer is hired to map an island that does not appear on any chart.",
        "A misty archipelago reached only by a small sailing boat.",
        "draws maps for a living",
        "captains the sailing boat",
        "finish the map",
        "a rival survey crew",
        "the unfinished map",
        "the boat's cabin",
        "the island's cliffs",
    ),
    Premise(
        "[demo] A hotel receptionist finds a fourth-floor room missing from the building plans.",
        "A faded seaside hotel out of season.",
        "works the hotel front desk",
        "is the hotel's only long-term guest",
        "learn what the hidden room is for",
        "an owner who plans to sell the hotel",
        "the brass room key",
        "the front desk",
        "the fourth floor",
    ),
    Premise(
        "[demo] A village choir enters a national contest with a song nobody remembers writing.",
        "A small mining village with a chapel and a brass band.",
        "leads the village choir",
        "plays the chapel organ",
        "win the contest",
        "a judge who dislikes the song",
        "the old song sheet",
        "the chapel",
        "the contest hall",
    ),
]

# Outline templates per style: four nodes (1., a., 2., a.), each (event, scene key, cast key).
OUTLINES: dict[str, list[tuple[str, str, str]]] = {
    "twist": [
        ("{Hero} sets out to {goal}.", "", "h"),
        ("{Ally} offers help and steers {hero} to {away}.", "away", "ha"),
        ("{Hero} learns that {ally} hid {thing} all along.", "", "h"),
        ("A final reversal turns all that {hero} believed upside down.", "home", "h"),
    ],
    "warm": [
        ("New in town and lonely, {Hero} tries to {goal}.", "", "h"),
        ("{Hero} and {Ally} become friends while searching {away}.", "away", "ha"),
        ("{Obstacle} forces {hero} to choose between {thing} and {ally}.", "", "h"),
        ("{Hero} chooses friendship, and the ending is hopeful.", "home", "h"),
    ],
    "brisk": [
        ("{Hero} has one day to {goal}.", "", "h"),
        ("{Hero} and {ally} barely escape a chase through {away}.", "away", "ha"),
        ("{Obstacle} forces a desperate race back to {home}.", "", "h"),
        ("{Hero} wins the race with seconds to spare.", "home", "h"),
    ],
    "flat": [
        ("{Hero} wants to {goal}.", "", "h"),
        ("{Hero} and {ally} visit {away} and talk about {thing}.", "away", "ha"),
        ("{Hero} thinks about it for a long time.", "", "h"),
        ("Things mostly stay the same, and the story ends.", "home", "h"),
    ],
}
LABELS = ["1", "a", "2", "a"]

FIRST_NAMES = [
    "Mira", "Tobin", "Elsa", "Rafe", "Ines", "Corin", "Talia", "Osric", "Noor", "Bram",
    "Leda", "Quill", "Sabe", "Idris", "Wren", "Joss", "Anya", "Pell", "Fenna", "Marek",
]  # fmt: skip
LAST_NAMES = [
    "Castell", "Fenwick", "Morrow", "Halloran", "Vesk", "Dunmore", "Ashby", "Quarry",
    "Penhale", "Strand", "Corrigan", "Tamsin", "Oakes", "Vireo", "Lindqvist", "Bracken",
]  # fmt: skip


def _cap(text: str) -> str:
    return text[0].upper() + text[1:]


def doc_plot(premise: Premise, style: str, hero: str, ally: str, ages: tuple[int, int]) -> str:
    """One outline in the real files' flattened layout (premise, settings, characters, outline)."""
    hero_first, ally_first = hero.split()[0], ally.split()[0]
    fill = {
        "Hero": hero_first,
        "hero": hero_first,
        "Ally": ally_first,
        "ally": ally_first,
        "goal": premise.goal,
        "thing": premise.thing,
        "away": premise.away,
        "home": premise.home,
        "obstacle": premise.obstacle,
        "Obstacle": _cap(premise.obstacle),
    }
    scenes = {"": "", "home": premise.home, "away": premise.away}
    casts = {"h": hero, "ha": f"{hero}, {ally}"}
    nodes = [
        f"{label}. {event.format(**fill)} Scene  {scenes[scene]} Characters  {casts[cast]}"
        for label, (event, scene, cast) in zip(LABELS, OUTLINES[style])
    ]
    characters = (
        f"{hero}  {hero_first}, {ages[0]}, {premise.hero_role}."
        f"{ally}  {ally_first}, {ages[1]}, {premise.ally_role}."
    )
    text = (
        f"Premise  {premise.premise}Settings  {premise.setting}Characters {characters}"
        f"Outline  Scene   Characters  {''.join(nodes)}.\n"
    )
    assert 60 <= len(text.split()) <= 120, (style, len(text.split()))
    return text


CHOICE = '```json\n{{\n  "Choice": "Plot {letter}",\n}}\n```'

DOC_QUESTION = (
    "[User Question] (demo) Below are two story outlines and the pick of one reader. As an "
    "example of what this reader likes, here is one comparison they made earlier:"
)
DOC_EXAMPLE_ANSWER = "The reader picked:"
DOC_NEXT = "Now guess which of the following two outlines the same reader would pick:"
DOC_FORMAT = (
    'Answer with a fenced JSON block whose "Choice" is either "Plot A" or "Plot B", the same '
    "way as the example above."
)


def doc_prompt(example: tuple[str, str], letter: str, query: tuple[str, str]) -> str:
    """The rendered Per-DOC prompt: one example comparison with its choice, then a new pair."""
    return (
        f"{DOC_QUESTION}\n\n[The Start of User Preference]\n"
        f"[The Start of Plot A]\n{example[0]}[The End of Plot A]\n"
        f"[The Start of Plot B]\n{example[1]}[The End of Plot B]\n"
        f"{DOC_EXAMPLE_ANSWER}{CHOICE.format(letter=letter)}\n\n[The End of User Preference]\n\n"
        f"{DOC_NEXT}\n\n"
        f"[The Start of Plot A]\n{query[0]}[The End of Plot A]\n\n"
        f"[The Start of Plot B]\n{query[1]}[The End of Plot B]\n\n"
        f"{DOC_FORMAT}\n\n [Response]"
    )


@dataclass(frozen=True)
class Annotator:
    """An invented annotator: an opaque id and a favourite outline style."""

    review_id: str
    favourite: str


Pair = tuple[int, str, str]
"""A comparison: a premise number and the styles of its two outlines."""


class DocWorld:
    """The invented outlines (fixed per premise and style) and the annotators' judgements."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.plots: dict[tuple[int, str], str] = {}
        for p, premise in enumerate(PREMISES):
            for style in STYLES:
                hero = f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"
                ally = hero
                while ally.split()[0] == hero.split()[0]:
                    ally = f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"
                ages = (rng.randint(19, 68), rng.randint(19, 68))
                self.plots[(p, style)] = doc_plot(premise, style, hero, ally, ages)
        alphabet = string.ascii_uppercase + string.digits
        self.annotators = [
            Annotator("DEMO" + "".join(rng.choice(alphabet) for _ in range(8)), favourite)
            for favourite in ["twist", "warm", "brisk"]
        ]

    def pair(self) -> Pair:
        first, second = self.rng.sample(STYLES, 2)
        return (self.rng.randrange(len(PREMISES)), first, second)

    def prefers(self, annotator: Annotator, aspect: str, pair: Pair) -> str:
        """The style the annotator prefers on this aspect (taste + aspect nudge + noise)."""

        def utility(style: str) -> float:
            taste = 2.0 if style == annotator.favourite else (-1.0 if style == "flat" else 0.5)
            return taste + ASPECT_BONUS[aspect].get(style, 0.0) + self.rng.gauss(0.0, 0.7)

        _, first, second = pair
        return first if utility(first) >= utility(second) else second

    def placed(self, pair: Pair, preferred: str, letter: str) -> tuple[str, str]:
        """The two outline texts, with the preferred one as Plot ``letter``."""
        p, first, second = pair
        other = second if preferred == first else first
        good, bad = self.plots[(p, preferred)], self.plots[(p, other)]
        return (good, bad) if letter == "A" else (bad, good)


def _balanced(rng: random.Random, count: int) -> list[str]:
    letters = ["A", "B"] * (count // 2) + ([rng.choice("AB")] if count % 2 else [])
    rng.shuffle(letters)
    return letters


def build_doc(rng: random.Random) -> dict[str, list[dict[str, Any]]]:
    """The rows of each aspect file (3 annotators x 2 rows; the quirk in the I file)."""
    world = DocWorld(rng)
    files: dict[str, list[dict[str, Any]]] = {}
    for aspect in ASPECTS:
        plans = []  # (annotator, example pair, query pair) per row
        for annotator in world.annotators:
            example = world.pair()
            queries: list[Pair] = []
            while len(queries) < 2:
                query = world.pair()
                if query[0] != example[0] and query[0] not in [q[0] for q in queries]:
                    queries.append(query)
            plans += [(annotator, example, query) for query in queries]
        if aspect == "I":
            # the quirk: the last annotator's second row repeats the first row's query and idx
            # with another example comparison
            annotator, example, query = plans[-2]
            other = world.pair()
            while other[0] in (query[0], example[0]):
                other = world.pair()
            plans[-1] = (annotator, other, query)
        idxs = rng.sample(range(1000, 9000), len(plans))
        if aspect == "I":
            idxs[-1] = idxs[-2]
        query_letters = _balanced(rng, len(plans))
        example_letters = _balanced(rng, len(plans))
        rendered_examples: dict[tuple[str, Pair], tuple[tuple[str, str], str]] = {}
        answered: dict[tuple[str, Pair], tuple[tuple[str, str], str]] = {}
        rows = []
        for n, (annotator, example, query) in enumerate(plans):
            key = (annotator.review_id, example)
            if key not in rendered_examples:
                letter = example_letters[n]
                texts = world.placed(example, world.prefers(annotator, aspect, example), letter)
                rendered_examples[key] = (texts, letter)
            example_texts, example_letter = rendered_examples[key]
            key = (annotator.review_id, query)
            if key not in answered:
                letter = query_letters[n]
                texts = world.placed(query, world.prefers(annotator, aspect, query), letter)
                answered[key] = (texts, letter)
            query_texts, query_letter = answered[key]
            rows.append(
                {
                    "idx": idxs[n],
                    "review_id": annotator.review_id,
                    "prompt": [doc_prompt(example_texts, example_letter, query_texts)],
                    "completion": CHOICE.format(letter=query_letter),
                }
            )
        files[aspect] = rows
    return files


# --------------------------------------------------------------------------------------------


def _write(path: Path, rows: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n")
    print(f"wrote {path.relative_to(REPO_ROOT)}: {len(rows)} rows")


def main() -> None:
    rng = random.Random(0)
    train, valid = build_mpst(rng)
    _write(MPST_DIR / "PerMPST.k5.train.jsonl", train)
    _write(MPST_DIR / "PerMPST.k5.valid.jsonl", valid)
    for aspect, rows in build_doc(rng).items():
        _write(DOC_DIR / f"PerDOC.{aspect}.valid.jsonl", rows)


if __name__ == "__main__":
    main()
