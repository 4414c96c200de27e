"""StorySparkQA (Chen et al., EMNLP 2024): story sections, expert QA, and human ratings.

The public dataset (GitHub ``neuhai/StorySparkQA`` and Hugging Face
:data:`STORYSPARKQA_HF_REPO`, MIT) holds 5,868 expert-written question-answer pairs
(train 4,300, val 799, test 769) over 278 children's stories, one CSV row per pair with
the story section it belongs to. It does **not** hold the human ratings of generated
QA pairs (grammar correctness, answer relevancy, contextual consistency, educational
appropriateness) that a rating task predicts. Those are read from a ratings file the
user supplies (format: ``docs/storysparkqa_ratings.md`` and :func:`load_ratings`); the
public CSVs give each rated pair its section text (the context) and the section's expert
QA pairs (the references of ROUGE-L).

``demo=True`` uses files written for this package (``demo/storysparkqa/``): three invented
stories in the merged CSV schema and invented ratings, all labelled demo.

``_dataset`` says where the data is and what is rated (pins, dimensions, prompt labels),
``_sections`` reads the public CSVs (story sections and their expert QA pairs),
``_ratings`` the user's ratings file, and ``_load`` joins them (:func:`load_storysparkqa`).
"""

from inspect_plural.sources.storysparkqa._dataset import (
    STORYSPARKQA_CONTENT_LABEL,
    STORYSPARKQA_CONTEXT_LABEL,
    STORYSPARKQA_DIMENSIONS,
    STORYSPARKQA_FILES,
    STORYSPARKQA_HF_REPO,
    STORYSPARKQA_REVISION,
    STORYSPARKQA_TASK_DESCRIPTION,
)
from inspect_plural.sources.storysparkqa._load import load_demo_sections, load_storysparkqa
from inspect_plural.sources.storysparkqa._ratings import (
    RATINGS_COLUMNS,
    RATINGS_OPTIONAL_COLUMNS,
    load_ratings,
)
from inspect_plural.sources.storysparkqa._sections import (
    StorySection,
    StorySparkQASections,
    format_qa,
    load_storysparkqa_sections,
    read_storysparkqa_sections,
    storysparkqa_files,
)

__all__ = [
    "RATINGS_COLUMNS",
    "RATINGS_OPTIONAL_COLUMNS",
    "STORYSPARKQA_CONTENT_LABEL",
    "STORYSPARKQA_CONTEXT_LABEL",
    "STORYSPARKQA_DIMENSIONS",
    "STORYSPARKQA_FILES",
    "STORYSPARKQA_HF_REPO",
    "STORYSPARKQA_REVISION",
    "STORYSPARKQA_TASK_DESCRIPTION",
    "StorySection",
    "StorySparkQASections",
    "format_qa",
    "load_demo_sections",
    "load_ratings",
    "load_storysparkqa",
    "load_storysparkqa_sections",
    "read_storysparkqa_sections",
    "storysparkqa_files",
]
