"""An echoed prompt or a copied example is refused; an honest answer quoting the item is not.

The rule (:mod:`inspect_plural.parsing._echo`): an answer reproducing half of the
prompt's word 6-grams, or a stretch of 80+ prompt words that is half the answer, is an
echo. Checked on the echoes real models wrote (Gemma 3 270M wrote the whole prompt back;
partial and repeated echoes) and on honest answers that quote the item, a label's
definition, or a few sentences of a long document.
"""

from __future__ import annotations

import json

import pytest
from inspect_ai.model import ChatMessageSystem, ChatMessageUser, ModelOutput

from inspect_plural.answer_format import DistributionFormat, LabelFormat, declare_answer_format
from inspect_plural.answer_screen import copied_distribution, screen_answer
from inspect_plural.parsing import copies_example, echo_check
from inspect_plural.prediction import ModelAnswer
from inspect_plural.prompts import example_distribution
from inspect_plural.records import RoleSampleMetadata, annotator_sample
from inspect_plural.solvers._answers import parse_answer
from inspect_plural.solvers.judge import render_judge_prompt
from inspect_plural.solvers.role_identification import _answer as role_answer
from inspect_plural.solvers.role_identification import json_skeleton, render_role_prompt
from inspect_plural.tasks import personaeval, perspective

TWEET = (
    "Demo tweet: those people should go back where they came from, they are ruining our "
    "towns and taking every job, and the government does nothing at all about it."
)
REVIEW = " ".join(
    f"Sentence {i} of the systematic review reports the pooled effect of the intervention "
    f"on outcome {i}, with moderate certainty of evidence and a wide confidence interval."
    for i in range(120)
)  # a long document, as MSLR-Cochrane's reviews are


def _brexit_prompt() -> tuple[str, LabelFormat]:
    task = perspective.brexit(demo=True, method="llm_judge")
    metadata = annotator_sample(task.dataset[3].metadata)
    text, declared = render_judge_prompt(metadata, False, True, None, "label")
    assert isinstance(declared, LabelFormat)
    return text, declared


def _prompt_with_item(item: str) -> str:
    text, _ = _brexit_prompt()
    start, end = text.index("# Content\n\n") + len("# Content\n\n"), text.index("\n\n# Labels")
    return text[:start] + item + text[end:]


# --- echoes ---------------------------------------------------------------------------


def test_the_whole_prompt_written_back_is_an_echo() -> None:
    prompt, _ = _brexit_prompt()
    check = echo_check(prompt, prompt)
    assert check.echo and check.prompt_share == 1.0


@pytest.mark.parametrize(
    "shape",
    ["twice", "continued", "from_content", "base_model_style", "gemma"],
)
def test_partial_and_repeated_echoes_are_echoes(shape: str) -> None:
    prompt, _ = _brexit_prompt()
    tail = prompt[prompt.index("# Content") :]
    answer = {
        "twice": prompt + "\n\n" + prompt,
        "continued": prompt + "\n\nThe person chose the label above. " * 3,
        "from_content": tail,
        # a base model continues the document it was given: the prompt, then more of it
        "base_model_style": prompt.replace("\n", " ") + " # Content Demo test tweet 17 ...",
        # Gemma 3 270M on the real HS-Brexit prompts (10 of 10 answers; 77-100% of the
        # prompt's 6-grams): the prompt, a stray token, the prompt again until the cap
        "gemma": f"{prompt} mendatang\n{prompt} mendatanguser\n{prompt[:300]}",
    }[shape]
    assert echo_check(answer, prompt).echo, shape


def test_a_long_stretch_of_a_long_prompt_is_an_echo() -> None:
    prompt = "Judge the review below.\n\n" + REVIEW + "\n\nAnswer with scores."
    stretch = " ".join(REVIEW.split()[500:700])  # 200 words copied, nothing else
    check = echo_check(stretch, prompt)
    assert check.prompt_share < 0.5 and check.echo


# --- honest answers ------------------------------------------------------------------


@pytest.mark.parametrize(
    "answer",
    [
        '```json\n{"label": "hate speech"}\n```',
        f'The tweet says "{TWEET}" That attacks a group of people for where they come '
        'from, so this person would call it hate speech.\n\n```json\n{"label": "hate speech"}\n```',
        f"{TWEET}\n\nAnswer: hate speech",  # the item quoted whole, then the answer
        "The labels are not hate speech and hate speech; the person would choose not hate "
        'speech, since the tweet is a calm remark.\n```json\n{"label": "not hate speech"}\n```',
    ],
)
def test_an_honest_answer_quoting_the_item_is_no_echo(answer: str) -> None:
    prompt = _prompt_with_item(TWEET)
    assert not echo_check(answer, prompt).echo
    assert screen_answer(answer, [ChatMessageUser(content=prompt)]) is None


def test_quoting_sentences_of_a_long_document_is_no_echo() -> None:
    prompt = "Judge the review below.\n\n" + REVIEW + "\n\nAnswer with scores."
    quoted = " ".join(REVIEW.split()[100:160])  # 60 words quoted
    answer = (
        f'The review says: "{quoted}" The summary keeps that finding but drops the '
        "certainty of evidence, which a clinician needs before acting on it. "
        'I give it 3 overall.\n```json\n{"overall": 3}\n```'
    )
    assert not echo_check(answer, prompt).echo


def test_the_system_prompt_counts_as_prompt_and_the_models_own_turns_do_not() -> None:
    persona = "You are Dr. Ana Ruiz, a clinician. " + REVIEW
    messages = [ChatMessageSystem(content=persona), ChatMessageUser(content="Give scores.")]
    assert screen_answer(persona, messages) is not None  # the system prompt written back


# --- copied examples -------------------------------------------------------------------


def test_a_copied_distribution_example_is_refused_in_any_wrapping() -> None:
    labels = ["not offensive", "offensive"]
    example = json.dumps(example_distribution(labels, "item 1"))
    declared = DistributionFormat(options=labels, example=example)
    prompt = _brexit_prompt()[0] + f"\n```json\n{example}\n```"
    message = declare_answer_format(ChatMessageUser(content=prompt), declared)
    # SmolLM2 constrained: its own reasoning, then the example's numbers
    answer = f'{{"reasoning": "Most people would not be offended.", "probabilities": {example}}}'
    parsed = parse_answer(answer, labels, "distribution", messages=[message])
    assert (parsed.parse_ok, parsed.failure) == (False, "copied_example")
    own = parse_answer('{"not offensive": 0.6, "offensive": 0.4}', labels, "distribution")
    assert own.parse_ok and copied_distribution(own.distribution, declared) is None


def test_a_copied_label_example_is_a_label_but_copied_lines_are_refused() -> None:
    prompt, declared = _brexit_prompt()
    assert declared.example is not None and not declared.copy_is_no_answer()
    message = declare_answer_format(ChatMessageUser(content=prompt), declared)
    copied = parse_answer(declared.example, declared.labels, "label", messages=[message])
    assert copied.parse_ok  # indistinguishable from that answer; drawn per sample: chance
    lines = LabelFormat(
        labels=["a", "b"],
        style="lines",
        fields=["Reasoning"],
        example="Reasoning: Weighed against what matters to them.\nAnswer: b",
        example_is_answer=False,
    )
    assert lines.copy_is_no_answer()
    assert copies_example(
        "Reasoning: weighed against what matters to them\nAnswer: b", str(lines.example)
    )
    assert not copies_example("Reasoning: it insults them.\nAnswer: b", str(lines.example))


# --- PersonaEval: the answers of issue 34's table -----------------------------------------


def _role_sample() -> RoleSampleMetadata:
    task = personaeval.personaeval_literary(demo=True)
    return RoleSampleMetadata.model_validate(task.dataset[0].metadata)


def _role_answer(answer: str) -> ModelAnswer:
    metadata = _role_sample()
    names = metadata.candidate_names
    declared = DistributionFormat(options=names, example=json_skeleton(metadata))
    prompt = render_role_prompt(metadata)
    message = declare_answer_format(ChatMessageUser(content=prompt), declared)
    text = answer.format(prompt=prompt, example=json_skeleton(metadata))
    return role_answer(ModelOutput.from_content("m", text), names, None, [message], declared)


def test_personaeval_echo_is_refused_not_read_as_the_first_candidate() -> None:
    # Gemma 3 270M: the prompt, then json fences, then the prompt again (read before as
    # "the first listed candidate = 1.0")
    parsed = _role_answer("{prompt}\n```json\n{{}}\n```\n{prompt}")
    assert (parsed.parse_ok, parsed.failure) == (False, "echo")


def test_personaeval_copied_example_is_refused() -> None:
    # SmolLM2: the prompt's example distribution returned for every sample (it was equal
    # odds, read as a tie and scored as a miss: top-1 0.000, below chance)
    parsed = _role_answer("Based on the dialogue:\n```json\n{example}\n```")
    assert (parsed.parse_ok, parsed.failure) == (False, "copied_example")
    example = json.loads(json_skeleton(_role_sample()))
    assert len(set(example.values())) == len(example)  # no tie: drawn per sample
