"""What StorySparkQA is: where its files are, what is rated, how prompts name it."""

from __future__ import annotations

from inspect_plural.records import RatingDimension

__all__ = [
    "DEMO_PACKAGE_DIR",
    "DEMO_RATINGS",
    "DEMO_SPLIT",
    "LOCAL_SUBDIR",
    "STORYSPARKQA_CONTENT_LABEL",
    "STORYSPARKQA_CONTEXT_LABEL",
    "STORYSPARKQA_DIMENSIONS",
    "STORYSPARKQA_FILES",
    "STORYSPARKQA_HF_REPO",
    "STORYSPARKQA_REVISION",
    "STORYSPARKQA_TASK_DESCRIPTION",
]


STORYSPARKQA_HF_REPO = "NEU-HAI/StorySparkQA"
"""The Hugging Face dataset."""


STORYSPARKQA_REVISION = "a6a22d67aa31ce057051c834d2aa37b3c0e4e362"
"""Pinned hub revision: the commit whose tree has the ``data-merged-in-csv/`` folder of the
GitHub layout. Its SHA was read from stored metadata and could not be checked against
the hub offline; pass ``-T revision=SHA`` to use another one."""


STORYSPARKQA_FILES: dict[str, str] = {
    "train": "data-merged-in-csv/train_split.csv",
    "val": "data-merged-in-csv/val_split.csv",
    "test": "data-merged-in-csv/test_split.csv",
}
"""Split -> path of its CSV in the repository (the hub names the middle split ``val``)."""


LOCAL_SUBDIR = "storysparkqa"
"""Sub-folder of the data root searched for the CSVs."""


DEMO_PACKAGE_DIR = "demo/storysparkqa"


DEMO_SPLIT = "demo_split.csv"


DEMO_RATINGS = "demo_ratings.csv"


STORYSPARKQA_CONTENT_LABEL = "generated question-answer pair"
"""What the rated content is called in prompts."""


STORYSPARKQA_CONTEXT_LABEL = "story section"
"""What the context is called in prompts."""


STORYSPARKQA_TASK_DESCRIPTION = (
    "In interactive story reading, an adult reads a children's fairy tale aloud to a child "
    "aged 3 to 6 and stops after a section to talk about it. A system reads one section "
    "of the story and writes a question-answer pair for that pause. A good pair starts "
    "from something in the section, such as a word, an object or an event, and leads "
    "beyond the story to real-world knowledge the child can learn (what an animal eats, "
    "what a tool is for), in words a young child understands, with an answer that is "
    "correct and fits the question."
)
"""What the rated QA pairs are for, shown to evaluators (our own wording)."""


STORYSPARKQA_DIMENSIONS: list[RatingDimension] = [
    RatingDimension(
        name="overall",
        title="Overall quality",
        description=(
            "How good the question-answer pair is overall for reading this story with a "
            "3-6-year-old: well written, answerable, tied to the section, and teaching "
            "something suitable and worthwhile."
        ),
        low=1.0,
        high=5.0,
    ),
    RatingDimension(
        name="grammar_correctness",
        title="Grammar correctness",
        description=(
            "Are the question and the answer grammatical, well-formed English that an adult "
            "could read aloud to a child exactly as written?"
        ),
        low=1.0,
        high=5.0,
    ),
    RatingDimension(
        name="answer_relevancy",
        title="Answer relevancy",
        description=(
            "Does the answer actually answer the question asked, correctly and to the "
            "point, rather than drifting to something else?"
        ),
        low=1.0,
        high=5.0,
    ),
    RatingDimension(
        name="contextual_consistency",
        title="Contextual consistency",
        description=(
            "Does the pair fit the story section: it builds on something the section "
            "mentions and does not contradict it, even where it reaches beyond the story?"
        ),
        low=1.0,
        high=5.0,
    ),
    RatingDimension(
        name="educational_appropriateness",
        title="Educational appropriateness",
        description=(
            "Is the pair suitable and useful for a child of 3 to 6: simple language, a "
            "worthwhile piece of real-world knowledge, and nothing unsuitable for young "
            "children?"
        ),
        low=1.0,
        high=5.0,
    ),
]
"""The rated dimensions, ``overall`` first (the mean of the other four per rater)."""
