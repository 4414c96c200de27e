"""MAJ-Eval persona creation and persona files: the shipped defaults, the loader (with
the paper's key spellings), the three-step pipeline's call count, the disk cache, the
command line, and answers that are malformed or find nothing."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    Model,
    ModelAPI,
    ModelOutput,
    get_model,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo
from tests.conftest import offline_output

from inspect_plural._disk_cache import cache_key
from inspect_plural.answer_format import JsonFormat, declared_answer_format
from inspect_plural.cli import main
from inspect_plural.models._random import RandomModelAPI
from inspect_plural.prompts import PromptTemplateError
from inspect_plural.stakeholders import (
    DEFAULT_PERSONA_SETS,
    PERSONA_SEED,
    PRESET_TASK_DESCRIPTIONS,
    Document,
    Persona,
    PersonaCreationError,
    PersonaFileError,
    PersonaSet,
    cached_personas,
    create_personas,
    default_personas,
    load_personas,
    persona_cache_key,
    persona_config,
    personas_for_task,
    read_document,
    select_personas,
    split_document,
)
from inspect_plural.stakeholders._calls import PERSONA_MAX_TOKENS
from inspect_plural.stakeholders.create import (
    EXTRACT_FORMAT,
    GROUP_FORMAT,
    PERSONA_FORMAT,
    parse_extraction,
    parse_grouping,
    parse_personas,
    persona_prompts,
)

TASK = "Rate question-answer pairs written for children's stories."

DIMENSIONS = {
    "mslr_cochrane": [
        ("fluency", ("fluent", "readable", "read smoothly", "clear", "well-formed", "wording")),
        ("pio", ("population", "intervention", "outcome", "patients", "treatment")),
        ("effect direction", ("direction", "helps, harms", "which way")),
        ("evidence strength", ("strength", "certain", "strong", "weak")),
    ],
    "storysparkqa": [
        ("grammar", ("grammar", "grammatical", "well-formed", "wording")),
        ("answer relevancy", ("answer", "answers the question")),
        ("contextual consistency", ("story", "passage")),
        ("educational appropriateness", ("age", "learn", "educational", "child")),
    ],
}
EXPECTED_GROUPS = {
    "mslr_cochrane": [
        "Clinical Librarians",
        "Clinicians",
        "Evidence Synthesis Researchers",
        "Medical Researchers",
    ],
    "storysparkqa": ["AI Developers", "Children", "Educational Experts", "Parents", "Teachers"],
}


class Calls:
    """Calls of the counting chance model, by step."""

    count: Counter[str] = Counter()
    configs: list[GenerateConfig] = []


def _step(answer_format: object) -> str:
    if answer_format == EXTRACT_FORMAT:
        return "extract"
    if answer_format == GROUP_FORMAT:
        return "group"
    if answer_format == PERSONA_FORMAT:
        return "persona"
    return "other"


class CountingRandomAPI(RandomModelAPI):
    """``plural/random`` that counts its calls by declared answer format."""

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        Calls.count[_step(declared_answer_format(input))] += 1
        Calls.configs.append(config)
        return await super().generate(input, tools, tool_choice, config)


@modelapi(name="stakeholdercount")
def _counting() -> type[ModelAPI]:
    return CountingRandomAPI


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECT_PLURAL_CACHE", str(tmp_path / "cache"))
    Calls.count = Counter()
    Calls.configs = []


def _docs() -> list[Document]:
    long = "\n\n".join(f"Paragraph {i}: parents and teachers read stories." for i in range(30))
    return [
        Document(name="short.txt", text="Parents read with children."),
        Document(name="long.md", text=long),
    ]


def _scripted(*answers: str) -> Model:
    outputs = [offline_output(a, input_tokens=100, output_tokens=20) for a in answers]
    return get_model("mockllm/model", custom_outputs=outputs)


def _fenced(value: Any) -> str:
    return "Here you go.\n\n```json\n" + json.dumps(value) + "\n```"


# --- the shipped defaults -----------------------------------------------------------


@pytest.mark.parametrize("task", DEFAULT_PERSONA_SETS)
def test_default_sets_are_complete(task: str) -> None:
    personas = default_personas(task)
    assert personas.task == task
    assert personas.origin.kind == "default"
    assert personas.usage.calls == 0
    assert personas.group_names() == EXPECTED_GROUPS[task]
    names = [p.name for p in personas.personas]
    assert len(names) == len(set(names)), "persona names must be unique across the set"
    for group in personas.groups:
        assert len(group.personas) >= 2
        assert group.simple_role and "\n" not in group.simple_role
        assert not group.simple_role.endswith(".") and group.simple_role[0].islower()
        assert group.characteristics
        assert len(group.perspectives) == len(group.personas)
        for persona in group.personas:
            assert persona.group == group.name
            for field in (
                "demographics",
                "perspective",
                "specialty",
                "psychological_traits",
                "social_relationships",
            ):
                assert getattr(persona, field), (persona.name, field)
    # the perspectives cover every rated dimension
    text = " ".join(p for g in personas.groups for p in g.perspectives).lower()
    for dimension, words in DIMENSIONS[task]:
        assert any(w in text for w in words), dimension
    assert personas.task_description == PRESET_TASK_DESCRIPTIONS[task]


def test_defaults_load_by_name_and_unknown_task_is_clear() -> None:
    assert load_personas("storysparkqa") == default_personas("storysparkqa")
    with pytest.raises(PersonaFileError, match="no default persona set"):
        default_personas("opinionqa")


def test_describe_and_one_line() -> None:
    persona = default_personas("mslr_cochrane").personas[0]
    lines = persona.describe().splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "Demographic information",
        "Perspective",
        "Specialty",
        "Psychological traits",
        "Social relationships",
    ]
    assert persona.one_line().startswith(f"{persona.name} (Clinical Librarians): ")
    assert "\n" not in persona.one_line()


# --- the loader ---------------------------------------------------------------------

PAPER_PERSONA = {
    "Name": "Ana Ruiz",
    "Demographic Information": "A 40-year-old teacher.",
    "Perspective": "Wants questions a child can answer.",
    "Specialty": "Reading aloud.",
    "Psychological Traits": "Patient.",
    "Social Relationships": "Works with parents.",
}


def test_paper_keys_load_in_a_persona_file(tmp_path: Path) -> None:
    path = tmp_path / "set.json"
    data = {"task": "storysparkqa", "groups": [{"name": "Teachers", "personas": [PAPER_PERSONA]}]}
    path.write_text(json.dumps(data), encoding="utf-8")
    loaded = load_personas(path)
    persona = loaded.personas[0]
    assert persona.name == "Ana Ruiz" and persona.group == "Teachers"
    assert persona.demographics == "A 40-year-old teacher."
    assert persona.psychological_traits == "Patient."
    assert persona.social_relationships == "Works with parents."
    assert loaded.origin.kind == "file"
    assert loaded.groups[0].perspectives == ["Wants questions a child can answer."]
    assert loaded.groups[0].simple_role == "a member of the Teachers stakeholder group"


def test_the_papers_persona_answer_loads_as_a_file(tmp_path: Path) -> None:
    path = tmp_path / "paper.json"
    second = {**PAPER_PERSONA, "Name": "Li Wei", "Perspective": "Values grammar."}
    path.write_text(
        json.dumps({"Teachers": [PAPER_PERSONA, second], "Parents": [PAPER_PERSONA]}),
        encoding="utf-8",
    )
    loaded = load_personas(path)
    assert loaded.group_names() == ["Teachers", "Parents"]
    assert [p.name for p in loaded.group("teachers").personas] == ["Ana Ruiz", "Li Wei"]


def test_round_trip(tmp_path: Path) -> None:
    personas = default_personas("mslr_cochrane")
    assert load_personas(personas.save(tmp_path / "sub" / "p.json")) == personas


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON at line 1"),
        (json.dumps({"groups": []}), "groups"),
        (json.dumps({"groups": [{"name": "T", "personas": [{"name": "A"}]}]}), "perspective"),
        (
            json.dumps({"groups": [{"name": "T", "personas": [PAPER_PERSONA, PAPER_PERSONA]}]}),
            "two personas named",
        ),
        (
            json.dumps({"groups": [{"name": "T"}, {"name": "t"}]}),
            "two groups",
        ),
        (
            json.dumps({"groups": [{"name": "T", "personas": [{**PAPER_PERSONA, "group": "X"}]}]}),
            "listed under group",
        ),
    ],
)
def test_invalid_files_name_the_file(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(PersonaFileError, match=message) as info:
        load_personas(path)
    assert str(path) in str(info.value)


def test_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(PersonaFileError, match="not found"):
        load_personas(tmp_path / "nope.json")


def test_select_groups_and_cap() -> None:
    full = default_personas("storysparkqa")
    chosen = select_personas(full, "parents, teachers", n_personas=2)
    assert chosen.group_names() == ["Parents", "Teachers"]  # the set's order
    assert [len(g.personas) for g in chosen.groups] == [2, 2]
    assert len(full.group("Parents").personas) == 3  # the input is unchanged
    assert full.select(["Children"]).group_names() == ["Children"]
    assert len(full.select(n_personas=1).personas) == 5
    with pytest.raises(ValueError, match="unknown stakeholder group"):
        full.select(["Nurses"])
    with pytest.raises(ValueError, match="at least 1"):
        full.select(n_personas=0)


# --- documents ----------------------------------------------------------------------


def test_split_document_keeps_paragraphs_and_text() -> None:
    doc = _docs()[1]
    parts = split_document(doc, 300)
    assert len(parts) > 1 and all(len(p.text) <= 300 for p in parts)
    assert parts[0].name == f"long.md (part 1 of {len(parts)})"
    assert " ".join(" ".join(p.text for p in parts).split()) == " ".join(doc.text.split())
    assert split_document(doc, 10**6) == [Document(name="long.md", text=doc.text.strip())]
    assert split_document(Document(name="e.txt", text="  \n"), 100) == []
    one_word_lines = split_document(Document(name="w.txt", text="x" * 250), 100)
    assert [len(p.text) for p in one_word_lines] == [100, 100, 50]


def test_read_document_types(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# Title\n\nText.", encoding="utf-8")
    assert read_document(tmp_path / "a.md") == Document(name="a.md", text="# Title\n\nText.")
    (tmp_path / "a.docx").write_text("x", encoding="utf-8")
    with pytest.raises(ValueError, match="unsupported document type"):
        read_document(tmp_path / "a.docx")
    with pytest.raises(FileNotFoundError):
        read_document(tmp_path / "missing.txt")
    try:
        import pypdf  # noqa: F401
    except ImportError:
        (tmp_path / "a.pdf").write_bytes(b"%PDF-1.4")
        with pytest.raises(ValueError, match="pypdf"):
            read_document(tmp_path / "a.pdf")


# --- the pipeline -------------------------------------------------------------------


def test_pipeline_calls_chunks_plus_one_plus_groups() -> None:
    docs = _docs()
    chunks = sum(len(split_document(d, 300)) for d in docs)
    assert chunks > 2
    created = asyncio.run(
        create_personas(docs, TASK, "storysparkqa", "stakeholdercount/random", max_doc_chars=300)
    )
    assert Calls.count["extract"] == chunks
    assert Calls.count["group"] == 1
    assert Calls.count["persona"] == len(created.groups) >= 1
    assert Calls.count["other"] == 0
    assert created.usage.calls == chunks + 1 + len(created.groups)
    # reproducible: every call at temperature 0 with the default seed
    assert {(c.temperature, c.seed) for c in Calls.configs} == {(0.0, PERSONA_SEED)}
    assert created.usage.input_tokens > 0 and created.usage.output_tokens > 0
    assert created.origin.kind == "documents"
    assert created.origin.model == "stakeholdercount/random"
    assert [(d.name, d.chunks) for d in created.origin.documents] == [
        ("short.txt", 1),
        ("long.md", chunks - 1),
    ]
    assert created.origin.documents[0].sha256 == docs[0].sha256
    assert created.origin.prompts_hash and created.origin.created
    names = [p.name for p in created.personas]
    assert len(names) == len(set(names))
    assert all(p.group == g.name for g in created.groups for p in g.personas)
    assert created.stakeholders and all(s.document for s in created.stakeholders)
    # what it writes is a valid persona file
    assert PersonaSet.model_validate_json(created.to_json()) == created


def test_cache_hit_makes_no_call_and_the_key_tracks_its_inputs(tmp_path: Path) -> None:
    docs = _docs()
    model = "stakeholdercount/random"
    first, hit = asyncio.run(cached_personas(docs, TASK, "storysparkqa", model))
    made = sum(Calls.count.values())
    assert not hit and made == first.usage.calls > 0
    second, hit = asyncio.run(cached_personas(docs, TASK, "storysparkqa", model))
    assert hit and sum(Calls.count.values()) == made  # zero calls
    assert second == first and second.origin.cache_key
    assert list((tmp_path / "cache" / "personas").glob("*.json"))
    third, hit = asyncio.run(cached_personas(docs, TASK, "storysparkqa", model, cache=False))
    assert not hit and sum(Calls.count.values()) == made + third.usage.calls

    key = persona_cache_key(docs, TASK, "storysparkqa", model)
    assert key == second.origin.cache_key
    edited = [docs[0], Document(name="long.md", text=docs[1].text + " More.")]
    prompts = tmp_path / "prompts"
    prompts.mkdir()
    (prompts / "maj_persona.txt").write_text(
        "{task_description}\n{perspectives}\nJSON please.", encoding="utf-8"
    )
    others = {
        persona_cache_key(edited, TASK, "storysparkqa", model),
        persona_cache_key(docs, TASK + " Also rate style.", "storysparkqa", model),
        persona_cache_key(docs, TASK, "storysparkqa", "plural/random"),
        persona_cache_key(docs, TASK, "storysparkqa", get_model(model, seed=7)),
        persona_cache_key(docs, TASK, "storysparkqa", model, prompts=str(prompts)),
        persona_cache_key(docs, TASK, "storysparkqa", model, max_doc_chars=500),
        persona_cache_key(
            docs, TASK, "storysparkqa", model, config=GenerateConfig(temperature=0.7)
        ),
        persona_cache_key(docs, TASK, "mslr_cochrane", model),
        persona_cache_key(docs, TASK, "storysparkqa", model, config=persona_config(7)),
    }
    assert key not in others and len(others) == 9
    assert key == persona_cache_key(
        docs, TASK, "storysparkqa", model, config=persona_config(PERSONA_SEED)
    )


def test_cache_key_is_the_hash_of_the_same_payload_so_stored_sets_are_still_found() -> None:
    # the payload (and its version) under which every stored set was written: changing
    # it orphans the cache, so it must change only on purpose (bump "version" then)
    docs = _docs()
    model = get_model("plural/random", seed=3)
    payload = {
        "version": 1,
        "task": "storysparkqa",
        "task_description": TASK,
        "documents": [[doc.name, doc.sha256] for doc in docs],
        "model": "plural/random",
        "model_args": {"seed": 3},
        "prompts": persona_prompts(),
        "max_doc_chars": 500,
        # the token cap is part of what the calls could answer (added with it: sets created
        # before it are created again once)
        "config": {"max_tokens": PERSONA_MAX_TOKENS, "temperature": 0.0, "seed": 7},
    }
    key = persona_cache_key(
        docs, TASK, "storysparkqa", model, max_doc_chars=500, config=persona_config(7)
    )
    assert key == cache_key(payload)
    assert persona_cache_key(docs, TASK, "storysparkqa", "plural/random") == cache_key(
        {
            **payload,
            "model_args": {},
            "max_doc_chars": 60_000,
            "config": {"max_tokens": PERSONA_MAX_TOKENS, "temperature": 0.0, "seed": PERSONA_SEED},
        }
    )


def test_bad_template_fails_before_any_call(tmp_path: Path) -> None:
    (tmp_path / "maj_group.txt").write_text("{task_description} {unknown}", encoding="utf-8")
    with pytest.raises(PromptTemplateError, match="unknown"):
        asyncio.run(
            create_personas(_docs(), TASK, model="stakeholdercount/random", prompts=str(tmp_path))
        )
    assert sum(Calls.count.values()) == 0


def test_personas_for_task_sources() -> None:
    shipped, calls = asyncio.run(personas_for_task("mslr_cochrane", "ignored"))
    assert shipped.origin.kind == "default" and calls == 0
    named, calls = asyncio.run(personas_for_task("x", "", personas="storysparkqa"))
    assert named.task == "storysparkqa" and calls == 0
    with pytest.raises(PersonaFileError, match="ships no default"):
        asyncio.run(personas_for_task("opinionqa", ""))
    with pytest.raises(ValueError, match="not both"):
        asyncio.run(personas_for_task("x", "", personas="storysparkqa", documents=_docs()))
    made, calls = asyncio.run(
        personas_for_task("t", TASK, documents=_docs(), model="stakeholdercount/random")
    )
    assert calls == made.usage.calls > 0
    again, calls = asyncio.run(
        personas_for_task("t", TASK, documents=_docs(), model="stakeholdercount/random")
    )
    assert calls == 0 and again == made


# --- malformed answers --------------------------------------------------------------

EXTRACTED = [
    {
        "name": "Parents",
        "characteristics": "Caregivers of young children.",
        "perspectives": [
            {
                "perspective": "Questions should suit the child's age.",
                "evidence": ["quote 1", "quote 2"],
            },
            "Grammar should be correct.",
        ],
    }
]


def test_a_document_that_yields_nothing_is_recorded_and_fallbacks_apply() -> None:
    # extraction: one answer without JSON, one as a list with a trailing comma; grouping
    # unreadable (one group per stakeholder); personas in the paper's layout and keys,
    # the second without a perspective (it takes the group's second perspective)
    listed = "```json\n" + json.dumps(EXTRACTED)[:-1] + ",]\n```"
    persona_answer = _fenced(
        {
            "Parents": [
                PAPER_PERSONA,
                {"Name": "Bo Kim", "Demographic Information": "A 30-year-old father."},
                {"Demographic Information": "nameless"},
            ]
        }
    )
    model = _scripted("Sorry, nothing here.", listed, "The groups are obvious.", persona_answer)
    docs = [Document(name="a.txt", text="one"), Document(name="b.txt", text="two")]
    created = asyncio.run(create_personas(docs, TASK, "storysparkqa", model))
    assert created.usage.calls == 4
    assert created.usage.input_tokens == 400 and created.usage.output_tokens == 80
    assert sorted(d.stakeholders for d in created.origin.documents) == [0, 1]
    notes = " | ".join(created.notes)
    assert "holds no JSON" in notes
    assert "grouping answer unreadable" in notes
    assert "persona 3 skipped" in notes
    (group,) = created.groups
    assert group.name == "Parents" and group.members == ["Parents"]
    assert group.perspectives == [
        "Questions should suit the child's age.",
        "Grammar should be correct.",
    ]
    assert group.perspective_evidence[0].evidence == ["quote 1 … quote 2"]
    assert [p.name for p in group.personas] == ["Ana Ruiz", "Bo Kim"]
    assert group.personas[1].perspective == "Grammar should be correct."
    assert group.personas[0].demographics == "A 40-year-old teacher."


@pytest.mark.parametrize("answer", ["I could not find anything.", "```json\n[]\n```", "{}"])
def test_no_stakeholders_at_all_is_a_clear_error(answer: str) -> None:
    model = _scripted(answer)
    with pytest.raises(PersonaCreationError, match="no stakeholder found in 1 document"):
        asyncio.run(create_personas([Document(name="a.txt", text="x")], TASK, model=model))


def test_no_readable_persona_is_a_clear_error() -> None:
    grouping = _fenced({"groups": [{"name": "Parents", "perspectives": ["Age fit."]}]})
    model = _scripted(_fenced({"Parents": {"perspectives": ["Age fit."]}}), grouping, "no idea")
    with pytest.raises(PersonaCreationError, match="no persona could be read"):
        asyncio.run(create_personas([Document(name="a.txt", text="x")], TASK, model=model))


def test_duplicate_persona_names_across_groups_are_renamed() -> None:
    extraction = _fenced(
        {"Parents": {"perspectives": ["Age fit."]}, "Teachers": {"perspectives": ["Relevance."]}}
    )
    grouping = _fenced(
        {
            "groups": [
                {"name": "Parents", "simple_role": "A parent.", "perspectives": ["Age fit."]},
                {"name": "Teachers", "perspectives": [{"perspective": "Relevance."}]},
                {"name": "Empty", "perspectives": []},
            ]
        }
    )
    same = _fenced({"personas": [{"name": "Sam Lee", "perspective": "p"}]})
    model = _scripted(extraction, grouping, same, same)
    created = asyncio.run(create_personas([Document(name="a.txt", text="x")], TASK, model=model))
    assert created.usage.calls == 1 + 1 + 2  # the group without perspectives got no call
    assert sorted(p.name for p in created.personas) == ["Sam Lee", "Sam Lee (Teachers)"] or sorted(
        p.name for p in created.personas
    ) == ["Sam Lee", "Sam Lee (Parents)"]
    assert created.group("Parents").simple_role == "a parent"
    assert any("'Empty' has no perspective" in n for n in created.notes)


def test_parsers_accept_other_shapes() -> None:
    wrapped = parse_extraction(_fenced({"stakeholders": EXTRACTED}), "d")
    assert (
        wrapped is not None and wrapped[0].name == "Parents" and len(wrapped[0].perspectives) == 2
    )
    single = parse_extraction('{"stakeholder": "Nurses", "perspectives": "Be brief."}', "d")
    assert single is not None and single[0].perspectives[0].perspective == "Be brief."
    assert parse_extraction("[]", "d") == []
    named_stakeholder = parse_extraction(_fenced({"Name": {"perspectives": ["x"]}}), "d")
    assert named_stakeholder is not None and named_stakeholder[0].name == "Name"
    assert parse_extraction("no json", "d") is None

    groups = parse_grouping(
        _fenced({"Teachers": {"characteristics": "c", "perspectives": ["a", "b"]}, "Kids": ["c"]})
    )
    assert groups is not None and [g.name for g in groups] == ["Teachers", "Kids"]
    merged = parse_grouping(
        _fenced(
            [
                {"name": "Teachers", "perspectives": ["a"]},
                {"name": "teachers", "perspectives": ["b"]},
            ]
        )
    )
    assert merged is not None and merged[0].perspectives == ["a", "b"]
    assert parse_grouping("nothing") is None

    assert parse_personas(_fenced(PAPER_PERSONA))[0]["Name"] == "Ana Ruiz"
    assert len(parse_personas(_fenced({"personas": [PAPER_PERSONA, PAPER_PERSONA]}))) == 2
    assert parse_personas("none") == []
    assert Persona.model_validate(PAPER_PERSONA).specialty == "Reading aloud."


def test_every_prompt_declares_a_json_format() -> None:
    for declared in (EXTRACT_FORMAT, GROUP_FORMAT, PERSONA_FORMAT):
        assert isinstance(declared, JsonFormat) and declared.json_schema


# --- the command line ---------------------------------------------------------------


def test_cli_writes_a_valid_file_and_uses_the_cache(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = tmp_path / "paper.txt"
    doc.write_text("Teachers read stories aloud.\n\nParents ask questions.", encoding="utf-8")
    out = tmp_path / "personas.json"
    args = ["personas", str(doc), "--preset", "storysparkqa", "--model", "plural/random"]
    assert main([*args, "-o", str(out), "-M", "seed=3"]) == 0
    loaded = load_personas(out)
    assert loaded.task == "storysparkqa" and loaded.origin.kind == "documents"
    assert loaded.task_description == PRESET_TASK_DESCRIPTIONS["storysparkqa"]
    printed = capsys.readouterr().out
    assert f"{loaded.usage.calls} calls" in printed and "wrote" in printed
    assert loaded.group_names()[0] in printed

    assert main([*args, "-o", str(out), "-M", "seed=3"]) == 0
    assert "from cache: 0 calls now" in capsys.readouterr().out
    assert main([*args, "-o", str(out), "-M", "seed=3", "--no-cache"]) == 0
    assert "from cache" not in capsys.readouterr().out
    # --seed is the creation calls' seed, so another seed is another cached set
    assert main([*args, "-o", str(out), "-M", "seed=3", "--seed", "5"]) == 0
    assert "from cache" not in capsys.readouterr().out
    assert main([*args, "-o", str(out), "-M", "seed=3", "--seed", "5"]) == 0
    assert "from cache: 0 calls now" in capsys.readouterr().out

    task_file = tmp_path / "task.txt"
    task_file.write_text(TASK, encoding="utf-8")
    other = tmp_path / "custom.json"
    assert (
        main(
            [
                "personas",
                str(doc),
                "--task-file",
                str(task_file),
                "--task-name",
                "mine",
                "--model",
                "plural/random",
                "-o",
                str(other),
                "--max-doc-chars",
                "30",
            ]
        )
        == 0
    )
    custom = load_personas(other)
    assert custom.task == "mine" and custom.task_description == TASK
    assert custom.origin.documents[0].chunks == 2


def test_cli_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "o.json")
    base = ["--task", TASK, "--model", "plural/random", "-o", out]
    assert main(["personas", str(tmp_path / "missing.txt"), *base]) == 2
    assert "document not found" in capsys.readouterr().err
    (tmp_path / "empty.txt").write_text("", encoding="utf-8")
    assert main(["personas", str(tmp_path / "empty.txt"), *base]) == 2
    assert "no stakeholder found" in capsys.readouterr().err
    (tmp_path / "doc.txt").write_text("Teachers.", encoding="utf-8")
    assert (
        main(["personas", str(tmp_path / "doc.txt"), *base[:2], "--model", "nope/x", "-o", out])
        == 2
    )
    assert "cannot use model 'nope/x'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["personas", "x.txt", "--model", "plural/random", "-o", out])  # no task
    with pytest.raises(SystemExit):
        main(
            [
                "personas",
                "x.txt",
                "--task",
                "t",
                "--preset",
                "storysparkqa",
                "--model",
                "m",
                "-o",
                out,
            ]
        )
    assert not Path(out).exists()
