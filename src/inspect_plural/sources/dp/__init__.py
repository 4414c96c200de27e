"""DP: Diversity of Perspectives toxicity ratings (Kumar et al., SOUPS 2021).

The data is one encrypted file on ``scans.io/study/toxicity-perspectives`` (Censys); the
password must be requested from the authors (Deepak Kumar), so it is never downloaded.
Decrypted, it is :data:`DP_FILE` (``toxicity_ratings.json``), JSON lines: one comment per
line with ``comment``, ``comment_id``, ``source``, ``perspective_score`` and ``ratings``, a
list with one object per rater holding

- the labels of :data:`DP_LABEL_FIELDS`: ``toxic_score`` (0 "not at all toxic" to 4
  "extremely toxic") and the flags ``is_profane``, ``is_threat``, ``is_identity_attack``,
  ``is_insult``, ``is_sexual_harassment``, ``fine_to_see_online``, ``remove_from_online``;
- the rater's survey answers: ``gender``, ``race``, ``age_range``, ``education``,
  ``political_affilation`` (sic), ``lgbtq_status``, ``identify_as_transgender``,
  ``is_parent``, ``religion_important``, ``technology_impact``, ``uses_media_social``,
  ``uses_media_news``, ``uses_media_video``, ``uses_media_forums``,
  ``personally_seen_toxic_content``, ``personally_been_target``, ``toxic_comments_problem``.

Any ``*.jsonl`` or ``*.json`` file of JSON lines in the folder is accepted
(:data:`DP_FILE_GLOBS`); ``toxicity_ratings.json`` is preferred when several exist.

Rater ids. The public release has no worker id. A rating's ``worker_id`` is used when
present (a later release reportedly adds it); otherwise the id is rebuilt from the survey:
``"r" + sha1(json.dumps(survey, sort_keys=True))[:12]``, where ``survey`` holds every
non-label field of the rating that is not null (list or dict values enter as their JSON
text). As in third-party loaders, raters whose survey answers are identical therefore
merge into one annotator, and a rater who labelled the same comment twice (or two merged
raters who labelled the same comment) keeps the first judgment.

Traits are a readable subset of the survey (as in CINEMETRIC's DP profile), see
:data:`DP_TRAITS`; values are the data's strings (booleans as ``True``/``False``, the
mojibake ``â€“`` repaired to ``–``), ``UNK`` when missing.

``_load`` finds the file (:func:`load_dp`), ``_read`` reads it into records
(:func:`read_dp_jsonl`), ``_fields`` holds the labels, traits and rater ids.
"""

from inspect_plural.sources.dp._fields import (
    DP_LABEL_FIELDS,
    DP_LABELS,
    DP_TOXICITY_LABELS,
    DP_TRAITS,
    rater_hash,
)
from inspect_plural.sources.dp._load import DP_FILE, DP_FILE_GLOBS, DP_SCANS_URL, load_dp
from inspect_plural.sources.dp._read import read_dp_jsonl

__all__ = [
    "DP_FILE",
    "DP_FILE_GLOBS",
    "DP_LABELS",
    "DP_LABEL_FIELDS",
    "DP_SCANS_URL",
    "DP_TOXICITY_LABELS",
    "DP_TRAITS",
    "load_dp",
    "rater_hash",
    "read_dp_jsonl",
]
