"""An answer that repeats the prompt, or copies its filled example, is not an answer.

A small base model asked a question often writes the prompt back (Gemma 3 270M did for
every HS-Brexit item), and the prompt holds a filled example answer, which a parser
looking inside the echo then reads as the model's answer. Both checks run on the answer
text before any parser looks inside it.

**Echo.** Text is compared as words (NFKC, casefolded, punctuation ignored) by word
6-grams. An answer is an echo when

- it reproduces at least half of the prompt's distinct 6-grams (the prompt, or most of
  it, written back), or
- its longest stretch of words covered by the prompt's 6-grams is at least 80 words
  and at least half of the answer (a long stretch of the prompt, with little else).

An honest answer that quotes the item (a tweet, a sentence of a review, a label's
definition) reproduces a small share of the prompt, and a quote of 80 words or more
with little else around it is no answer either. The thresholds are
:data:`ECHO_PROMPT_SHARE`, :data:`ECHO_STRETCH_WORDS` and :data:`ECHO_ANSWER_SHARE`.

**Copied example.** An answer whose words are exactly the words of the prompt's filled
example (fences, quotes, braces and spacing ignored) copied it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

__all__ = [
    "ECHO_ANSWER_SHARE",
    "ECHO_NGRAM",
    "ECHO_PROMPT_SHARE",
    "ECHO_STRETCH_WORDS",
    "EchoCheck",
    "copies_example",
    "echo_check",
]

ECHO_NGRAM = 6
"""Word n-grams compared between the answer and the prompt."""
ECHO_PROMPT_SHARE = 0.5
"""An answer reproducing this share of the prompt's distinct n-grams is an echo."""
ECHO_STRETCH_WORDS = 80
"""A stretch of the prompt this long (in words) ..."""
ECHO_ANSWER_SHARE = 0.5
"""... that is at least this share of the answer makes it an echo."""

_WORD = re.compile(r"\w+")
_FENCE_MARK = re.compile(r"```[\w-]*")


def _words(text: str) -> list[str]:
    return _WORD.findall(unicodedata.normalize("NFKC", text or "").casefold())


def _ngrams(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + ECHO_NGRAM]) for i in range(len(words) - ECHO_NGRAM + 1)}


@dataclass(frozen=True)
class EchoCheck:
    """How much of a prompt an answer reproduces.

    Attributes:
        prompt_share: Share of the prompt's distinct word n-grams found in the answer.
        stretch: Longest run of answer words covered by the prompt's n-grams.
        answer_words: Words in the answer.

    """

    prompt_share: float
    stretch: int
    answer_words: int

    @property
    def echo(self) -> bool:
        """Whether the answer is an echo of the prompt (see the module docstring)."""
        if self.prompt_share >= ECHO_PROMPT_SHARE:
            return True
        return (
            self.stretch >= ECHO_STRETCH_WORDS
            and self.stretch >= ECHO_ANSWER_SHARE * self.answer_words
        )

    def reason(self) -> str:
        """The failure message of an echo.

        Returns:
            The message.
        """
        return (
            f"the answer repeats the prompt ({self.prompt_share:.0%} of its word "
            f"{ECHO_NGRAM}-grams; a copied stretch of {self.stretch} of its "
            f"{self.answer_words} words)"
        )


def echo_check(answer: str, prompt: str) -> EchoCheck:
    """Measure how much of ``prompt`` the ``answer`` reproduces.

    Linear in the lengths of both texts.

    Args:
        answer: The model output.
        prompt: Everything the model was shown (system and user messages).

    Returns:
        The measures; :attr:`EchoCheck.echo` says whether it is an echo.
    """
    answer_words = _words(answer)
    prompt_grams = _ngrams(_words(prompt))
    if not prompt_grams or len(answer_words) < ECHO_NGRAM:
        return EchoCheck(0.0, 0, len(answer_words))
    found: set[tuple[str, ...]] = set()
    covered_until = -1  # the last answer word covered by a matching n-gram
    stretch = run = 0
    for i in range(len(answer_words)):
        gram = tuple(answer_words[i : i + ECHO_NGRAM])
        if len(gram) == ECHO_NGRAM and gram in prompt_grams:
            found.add(gram)
            covered_until = i + ECHO_NGRAM - 1
        run = run + 1 if i <= covered_until else 0
        stretch = max(stretch, run)
    return EchoCheck(len(found) / len(prompt_grams), stretch, len(answer_words))


def copies_example(answer: str, example: str) -> bool:
    """Whether an answer is the prompt's filled example, word for word.

    Fences, quotes, braces, punctuation, case and spacing are ignored: only the words
    and numbers compare.

    Args:
        answer: The model output.
        example: The filled example the prompt showed.

    Returns:
        True when both have the same words in the same order (and some words).
    """
    words = _words(_FENCE_MARK.sub(" ", example))
    return bool(words) and _words(_FENCE_MARK.sub(" ", answer)) == words
