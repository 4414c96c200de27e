"""Reading an answer from free text: the one allowed name the text names, not negated.

A model asked for JSON sometimes answers in a sentence instead ("This person would
likely view the content as hate speech, given that ..."). Such an answer is read when it
is unambiguous:

- names are found as whole-word sequences (case, punctuation and spacing ignored; each
  CJK character is a word of its own, so names in Chinese or Japanese text are found
  without spaces), the longest name first at each position, so ``not hate speech`` is
  never read as ``hate speech``;
- a name inside a question (a sentence ending in ``?``) is not an answer;
- a name with a negation among the six words before it in its clause, after any
  earlier name (``not``, ``n't``, ``no``, ``never``, ``neither``, ``nor``,
  ``without``, ``rather than``, ``instead of``, ``unlikely``, ``不``, ``没``, ``非``...)
  is not an answer; a clause ends at punctuation or at ``but``, ``however``,
  ``although``..., and ``no doubt`` or ``not only`` negate nothing;
- a name with a hedge among the four words before it in its clause (``both``,
  ``either``, ``mix``, ``mixture``, ``combination``, ``between``, ``partly``...: "a mix
  of both hate speech and ...") is a hedge, not an answer;
- a name mentioned only negated reads as its complement when the scale has one: with
  the labels ``hate speech`` and ``not hate speech``, "a factual report, not a hate
  speech message" answers ``not hate speech`` (the complement of ``X`` is the label
  ``not X``, ``non X``, ``non-X`` or ``no X``);
- the answer is the one name left; none, or two different names, is no answer.

Only names that can be told apart from ordinary prose are read this way: a scale with a
purely numeric label (``1`` ... ``5``) or a one-letter label (``A``) is never read from
free text, since numbers and letters occur in any sentence.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["HEDGES", "Mentions", "NEGATIONS", "find_mentions", "readable_in_text"]

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+")
_SENTENCE_END = re.compile(r"[.!?;。！？；\n]")
_CLAUSE_END = re.compile(r"[.!?;。！？；\n,:，：、—–]|\s-\s")
_CLAUSE_WORDS = frozenset({"but", "however", "although", "though", "yet", "whereas", "while"})
_NOT_NEGATING = frozenset(
    {("no", "doubt"), ("not", "only"), ("without", "doubt"), ("no", "question")}
)
_NOT = re.compile(r"n[’'`]t\b", re.IGNORECASE)

NEGATIONS = frozenset(
    {
        "not",
        "no",
        "never",
        "neither",
        "nor",
        "none",
        "nothing",
        "without",
        "cannot",
        "hardly",
        "than",
        "instead",
        "unlikely",
        "不",
        "没",
        "沒",
        "非",
        "无",
        "無",
        "未",
    }
)
"""Words that make a name after them in the same clause no answer."""
WINDOW = 6
"""How many words before a name (in its clause) are searched for a negation."""

HEDGES = frozenset(
    {
        "both",
        "either",
        "mix",
        "mixed",
        "mixture",
        "combination",
        "blend",
        "between",
        "partly",
        "partially",
        "half",
    }
)
"""Words that make a name right after them (in its clause) a hedge, not an answer."""
HEDGE_WINDOW = 4
"""How many words before a name (in its clause) are searched for a hedge."""
_COMPLEMENT_PREFIXES = (("not",), ("non",), ("no",))


def _fold(text: str) -> str:
    """NFKC, casefolded, ``n't`` written `` not``."""
    return _NOT.sub(" not", unicodedata.normalize("NFKC", text).casefold())


def _words(folded: str) -> list[tuple[str, int]]:
    """The words of folded text, with their start offsets."""
    return [(m.group(0), m.start()) for m in _TOKEN.finditer(folded)]


def _name_words(name: str) -> tuple[str, ...]:
    return tuple(word for word, _ in _words(_fold(name)))


def readable_in_text(names: Sequence[str]) -> bool:
    """Whether every name can be read from free text (none numeric or a single letter).

    Args:
        names: The allowed names (labels, candidates).

    Returns:
        True when each name has a word with a letter and is more than one character
        (a single CJK character is enough).
    """
    for name in names:
        words = _name_words(name)
        if not words or not any(ch.isalpha() for word in words for ch in word):
            return False
        if len(words) == 1 and len(words[0]) < 2 and not re.match(rf"[{_CJK}]", words[0]):
            return False
    return True


@dataclass
class Mentions:
    """The names a text mentions.

    Attributes:
        answers: Names mentioned as an answer (neither negated nor in a question), in
            order of first mention, each once.
        negated: Names mentioned only after a negation.
        questioned: Names mentioned only inside a question.
        hedged: Names mentioned after a hedge (``a mix of both``); any makes the text
            a hedge.

    """

    answers: list[str] = field(default_factory=list)
    negated: list[str] = field(default_factory=list)
    questioned: list[str] = field(default_factory=list)
    hedged: list[str] = field(default_factory=list)

    @property
    def answer(self) -> str | None:
        """The one name mentioned as an answer, or None (no name, several, or a hedge)."""
        return self.answers[0] if len(self.answers) == 1 and not self.hedged else None

    @property
    def hedge(self) -> bool:
        """Whether the text hedges: several names as answers, or a name after a hedge."""
        return len(self.answers) > 1 or bool(self.hedged)

    def error(self) -> str:
        """Why no single answer was read (for a parse failure's reason).

        Returns:
            The reason.
        """
        if self.hedged:
            return f"the text hedges ({self.hedged[0]!r} after a word such as 'both' or 'mix')"
        if len(self.answers) > 1:
            return f"the text names several of the options: {self.answers}"
        if self.negated:
            return f"the text names {self.negated[0]!r} only negated"
        if self.questioned:
            return f"the text names {self.questioned[0]!r} only in a question"
        return "the text names none of the options"


def find_mentions(text: str, names: Sequence[str]) -> Mentions:
    """The names ``text`` mentions, as an answer, negated or in a question.

    Args:
        text: The model output (or a part of it).
        names: The allowed names.

    Returns:
        The mentions; :attr:`Mentions.answer` is the answer when there is exactly one.
    """
    folded = _fold(text or "")
    words = _words(folded)
    by_first: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for name in names:
        key = _name_words(name)
        if key and all(key != k for k, _ in by_first.get(key[0], [])):
            by_first.setdefault(key[0], []).append((key, name))
    for keys in by_first.values():
        keys.sort(key=lambda pair: len(pair[0]), reverse=True)  # the longest name first
    ends = [m.start() for m in _SENTENCE_END.finditer(folded)]
    clauses = [m.start() for m in _CLAUSE_END.finditer(folded)]
    found = Mentions()
    hedged: list[str] = []
    i = previous_end = 0
    while i < len(words):
        match = next(
            (
                (key, name)
                for key, name in by_first.get(words[i][0], [])
                if tuple(w for w, _ in words[i : i + len(key)]) == key
            ),
            None,
        )
        if match is None:
            i += 1
            continue
        key, name = match
        closed_at = bisect_left(ends, words[i + len(key) - 1][1])
        closer = folded[ends[closed_at]] if closed_at < len(ends) else ""
        if closer in ("?", "？"):
            _add(found.questioned, name)
        elif _negated(words, i, max(previous_end, i - WINDOW), clauses):
            _add(found.negated, name)
        else:
            if _hedged(words, i, max(previous_end, i - HEDGE_WINDOW), clauses):
                _add(hedged, name)
            _add(found.answers, name)
        i = previous_end = i + len(key)
    found.hedged = hedged
    found.negated = [n for n in found.negated if n not in found.answers]
    found.questioned = [n for n in found.questioned if n not in found.answers]
    if not found.answers and not found.hedged and len(found.negated) == 1:
        complement = _complement(found.negated[0], names)
        if complement is not None:  # "..., not a hate speech message": not hate speech
            found.answers, found.negated = [complement], []
    return found


def _complement(name: str, names: Sequence[str]) -> str | None:
    """The label that is ``name`` negated (``not X``, ``non X``, ``non-X``, ``no X``)."""
    key = _name_words(name)
    complements = [
        other
        for other in names
        if any(_name_words(other) == (*prefix, *key) for prefix in _COMPLEMENT_PREFIXES)
    ]
    return complements[0] if len(complements) == 1 else None


def _negated(words: list[tuple[str, int]], i: int, start: int, clauses: list[int]) -> bool:
    """Whether a negation is among the words ``start..i-1`` of word ``i``'s clause.

    ``start`` is at most six words back, and never before the previous name (a negation
    belongs to the name right after it).
    """
    before = _clause_words(words, i, start, clauses)
    for j in range(len(before) - 1, -1, -1):
        if before[j] in _CLAUSE_WORDS:
            before = before[j + 1 :]
            break
    return any(
        word in NEGATIONS and (word, following) not in _NOT_NEGATING
        for word, following in zip(before, [*before[1:], ""])
    )


def _clause_words(
    words: list[tuple[str, int]], i: int, start: int, clauses: list[int]
) -> list[str]:
    """The words ``start..i-1`` that are in word ``i``'s clause."""
    position = bisect_left(clauses, words[i][1])
    opened = clauses[position - 1] if position else -1
    return [w for w, at in words[start:i] if at > opened]


def _hedged(words: list[tuple[str, int]], i: int, start: int, clauses: list[int]) -> bool:
    """Whether a hedge word is among the words ``start..i-1`` of word ``i``'s clause."""
    return any(word in HEDGES for word in _clause_words(words, i, start, clauses))


def _add(names: list[str], name: str) -> None:
    if name not in names:
        names.append(name)
