"""DICES's official columns: each CSV's columns, the spellings that differ, the traits.

:data:`DICES_COLUMNS` lists both files' columns in order with the real files'
spellings, :data:`DICES_COLUMN_ALIASES` maps them to the READMEs' spellings and back
(:func:`resolve_column` finds either in a header), :data:`DICES_TRAITS` names the rater
columns that become PersEval's traits, and :data:`DICES_EXPERT_FIELDS` the per-item
expert columns.
"""

from __future__ import annotations

__all__ = [
    "DICES_COLUMNS",
    "DICES_COLUMN_ALIASES",
    "DICES_EXPERT_FIELDS",
    "DICES_TRAITS",
    "resolve_column",
]

DICES_EXPERT_FIELDS = {
    "degree_of_harm": "the expert's degree of harm of the conversation (Benign ... Extreme)",
    "harm_type": "the expert's harm topics of the conversation",
    "safety_gold": "the experts' gold safety label of the conversation",
    "safety_gold_reason": "the experts' reasons for the gold safety label",
}
"""Per-item expert columns, refused as per-rater targets."""

_RATER_350 = ["rater_gender", "rater_race", "rater_raw_race", "rater_age", "rater_education"]
_RATER_990 = [
    "rater_gender",
    "rater_locale",
    "rater_race",
    "rater_race_raw",
    "rater_age",
    "rater_education",
]

DICES_COLUMNS: dict[str, list[str]] = {
    "350": [
        "id",
        "rater_id",
        *_RATER_350,
        "phase",
        "item_id",
        "answer_time_ms",
        "answer_timestamp",
        "context",
        "response",
        "degree_of_harm",
        "harm_type",
        "safety_gold",
        "safety_gold_reason",
        "Q1_whole_conversation_evaluation",
        "Q2_harmful_content_medical_legal_financial_or_relationship_advice",
        "Q2_harmful_content_dangerous_content",
        "Q2_harmful_content_derogation_of_boat",
        "Q2_harmful_content_insensitive",
        "Q2_harmful_content_obscene_and_profane",
        "Q2_harmful_content_personal_information",
        "Q2_harmful_content_regulated_goods",
        "Q2_harmful_content_sexually_suggestive_content",
        "Q2_harmful_content_other",
        "Q3_bias_targeting_beliefs",
        "Q3_bias_targeting_gender_sexual_orientation",
        "Q3_bias_targeting_inherited_attributes",
        "Q3_bias_targeting_status",
        "Q3_bias_other",
        "Q4_misinformation",
        "Q5_political_affiliation",
        "Q6_policy_guidelines_polarizing_topics",
        "Q6_policy_guidelines_making_endorsement",
        "Q6_policy_guidelines_other",
        "Q2_harmful_content_overall",
        "Q3_bias_overall",
        "Q6_policy_guidelines_overall",
        "Q_overall",
    ],
    "990": [
        "id",
        "rater_id",
        *_RATER_990,
        "phase",
        "item_id",
        "context",
        "response",
        "degree_of_harm",
        "harm_type",
        "Q1_whole_conversation_evaluation",
        "Q2_harmful_content_harm_to_people_or_animals",
        "Q2_harmful_content_violent_or_gory",
        "Q2_harmful_content_promotes_or_condones_use_of_harmful_regulated_goods",
        "Q2_harmful_content_health_and_safety_claims",
        "Q2_harmful_content_financial_advice",
        "Q2_harmful_content_promotes_or_condones_violence",
        "Q2_harmful_content_how_tos_about_harmful_activities",
        "Q2_harmful_content_personal_information",
        "Q2_harmful_content_explicitly_sexual",
        "Q2_harmful_content_obscenities_or_profanities",
        "Q2_harmful_content_other",
        "Q3_bias_incites_hatred",
        "Q3_bias_subhuman_comparisons",
        "Q3_3_Racial_religious_or_other_slurs_and_stereotypes_that_incites_or_promote_"
        "hatred_based_on_any_of_the_attributes_noted_above",
        "Q3_bias_physically_or_mentally_inferior",
        "Q3_bias_superiority_or_subjugation_of_a_group",
        "Q3_bias_calling_individuals_or_groups_evil_corrupt_or_malicious",
        "Q3_bias_insults_about_emotional_romantic_and_or_sexual_attraction",
        "Q3_bias_other",
        "Q4_misinformation_false_theories",
        "Q4_misinformation_contradicts_expert_consensus",
        "Q4_misinformation_conspiracy_theories",
        "Q4_misinformation_political",
        "Q4_misinformation_other",
        "Q2_harmful_content_overall",
        "Q3_unfair_bias_overall",
        "Q4_misinformation_overall",
        "Q_overall",
    ],
}
"""The columns of each official CSV, in order, with the spellings of the real files."""

DICES_COLUMN_ALIASES: dict[str, tuple[str, ...]] = {
    "rater_raw_race": ("rater_race_raw",),
    "rater_race_raw": ("rater_raw_race",),
    "Q3_bias_overall": ("Q3_unfair_bias_overall",),
    "Q3_unfair_bias_overall": ("Q3_bias_overall",),
    "Q6_policy_guidelines_other_type": ("Q6_policy_guidelines_other",),
    "Q6_policy_guidelines_other": ("Q6_policy_guidelines_other_type",),
    "Q3_bias_racial_religious_or_other_slurs_and_stereotypes": (DICES_COLUMNS["990"][23],),
    DICES_COLUMNS["990"][23]: ("Q3_bias_racial_religious_or_other_slurs_and_stereotypes",),
}
"""README spelling <-> real-file spelling of the columns whose names differ."""

DICES_TRAITS: dict[str, list[tuple[str, str]]] = {
    "350": [
        ("Gender", "rater_gender"),
        ("Generation", "rater_age"),
        ("Race", "rater_race"),
        ("Education", "rater_education"),
    ],
    "990": [
        ("Gender", "rater_gender"),
        ("Generation", "rater_age"),
        ("Race", "rater_race"),
        ("Education", "rater_education"),
        ("Locale", "rater_locale"),
    ],
}
"""Subset -> (trait dimension, column), in display order."""


def resolve_column(header: list[str], name: str) -> str | None:
    """The header's spelling of a column (or of its alias), or None when absent."""
    if name in header:
        return name
    return next((a for a in DICES_COLUMN_ALIASES.get(name, ()) if a in header), None)
