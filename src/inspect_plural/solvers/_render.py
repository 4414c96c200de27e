"""Rendering of records into prompt text, shared by the annotator-level methods."""

from __future__ import annotations

from inspect_plural.records import Item, LabeledExample, LabelScale

__all__ = ["render_examples", "render_item", "render_labels", "render_traits"]


def render_item(item: Item) -> str:
    """The content of an item: its text, or its named parts one after another."""
    pieces = []
    if item.context:
        pieces.append(f"Context: {item.context}")
    if item.parts:
        pieces += [f"{name}: {value}" for name, value in item.parts.items()]
    if item.text:
        pieces.append(item.text)
    return "\n\n".join(pieces)


def render_labels(scale: LabelScale) -> str:
    """The labels of a scale as a list (in order, noting when the order is meaningful)."""
    lines = [f"- {label}" for label in scale.labels]
    if scale.kind == "ordinal":
        lines.append("(The labels are ordered from the lowest to the highest.)")
    return "\n".join(lines)


def render_traits(traits: dict[str, str]) -> str:
    """Traits as ``name: value`` lines."""
    return "\n".join(f"- {name}: {value}" for name, value in traits.items())


def render_examples(examples: list[LabeledExample], heading: str = "Example") -> str:
    """An annotator's example judgments, numbered: the content, then the label they gave."""
    blocks = []
    for i, example in enumerate(examples, start=1):
        options = ""
        if example.scale is not None:  # a per-question scale (OpinionQA): show the options
            options = "\nOptions: " + "; ".join(example.scale.labels)
        blocks.append(
            f"{heading} {i}\n{render_item(example.item)}{options}\nTheir label: {example.label}"
        )
    return "\n\n".join(blocks)
