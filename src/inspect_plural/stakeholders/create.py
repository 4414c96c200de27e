"""MAJ-Eval persona creation (§3.1): documents → stakeholders → groups → personas.

Runs once per task, never per sample:

1. *Extract* (one call per document, or per chunk of a document longer than
   ``max_doc_chars``, concurrently): the stakeholders the text mentions, their
   characteristics, and their task-relevant perspectives with evidence.
2. *Group* (one call): similar stakeholders are merged into groups and redundant
   perspectives into one, distinct ones kept.
3. *Personas* (one call per group, concurrently): one persona per perspective, with
   a name and the five attributes.

Calls = chunks + 1 + groups. Every prompt declares its JSON answer format, so the
offline ``plural/random`` model can answer it. Answers are parsed tolerantly; a chunk
that yields nothing is recorded in ``PersonaSet.notes``, and only a run that finds no
stakeholder at all (or writes no persona) fails. :func:`cached_personas` keeps the
result on disk under a key of everything the result depends on.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import json_repair
from inspect_ai.model import ChatMessageUser, GenerateConfig, Model, ModelOutput, get_model
from inspect_ai.util import collect, span
from pydantic import BaseModel, Field, RootModel, ValidationError

from inspect_plural.answer_format import JsonFormat, declare_answer_format
from inspect_plural.parsing import extract_json_object, join_surrogate_escapes
from inspect_plural.prompts import load_template
from inspect_plural.stakeholders._cache import cache_key, read_cached, write_cached
from inspect_plural.stakeholders.records import (
    DEFAULT_PERSONA_SETS,
    DocumentInfo,
    ExtractedPerspective,
    ExtractedStakeholder,
    GroupPerspective,
    Persona,
    PersonaFileError,
    PersonaOrigin,
    PersonaSet,
    PersonaUsage,
    StakeholderGroup,
    default_personas,
    load_personas,
    name_key,
    normalise_key,
    persona_fields,
)

PERSONA_ATTRIBUTES = (
    "name",
    "demographics",
    "perspective",
    "specialty",
    "psychological_traits",
    "social_relationships",
)

__all__ = [
    "DEFAULT_MAX_DOC_CHARS",
    "PERSONA_SEED",
    "Document",
    "PersonaCreationError",
    "cached_personas",
    "create_personas",
    "make_personas",
    "parse_extraction",
    "parse_grouping",
    "parse_personas",
    "persona_cache_key",
    "persona_config",
    "persona_prompts",
    "personas_for_task",
    "read_document",
    "read_documents",
    "split_document",
]

EXTRACT = "maj_extract.txt"
GROUP = "maj_group.txt"
PERSONA = "maj_persona.txt"
EXTRACT_FIELDS = {"task_description", "document_name", "document"}
GROUP_FIELDS = {"task_description", "stakeholders"}
PERSONA_FIELDS = {"task_description", "group", "characteristics", "perspectives", "count"}
DEFAULT_MAX_DOC_CHARS = 60_000
PERSONA_SEED = 42
"""Generation seed of persona creation when none is given (as ``maj_eval``'s default)."""
DOCUMENT_SUFFIXES = (".txt", ".md", ".markdown", ".pdf")


class PersonaCreationError(RuntimeError):
    """Persona creation found no stakeholder, or could not write any persona."""


class Document(BaseModel):
    """A document to extract stakeholders from.

    Attributes:
        name: A short name (the file name), shown to the model and recorded.
        text: The full text.

    """

    name: str
    text: str

    @property
    def sha256(self) -> str:
        """SHA-256 of the text (UTF-8)."""
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


def read_document(path: str | Path) -> Document:
    """Read a ``.txt`` or ``.md`` file as text, or a ``.pdf`` with ``pypdf`` if installed.

    Args:
        path: The file.

    Returns:
        The document, named by its file name.

    Raises:
        FileNotFoundError: No such file.
        ValueError: An unsupported file type, or a PDF without ``pypdf``.
    """
    file = Path(path)
    if not file.is_file():
        raise FileNotFoundError(f"{file}: document not found")
    suffix = file.suffix.lower()
    if suffix == ".pdf":
        try:
            from pypdf import PdfReader  # type: ignore[import-not-found, unused-ignore]
        except ImportError as ex:
            raise ValueError(
                f"{file}: reading PDF needs the optional package pypdf (pip install pypdf), "
                "or convert the document to .txt first"
            ) from ex
        reader = PdfReader(str(file))
        text = "\n\n".join((page.extract_text() or "") for page in reader.pages)
    elif suffix in DOCUMENT_SUFFIXES:
        text = file.read_text(encoding="utf-8-sig", errors="replace")
    else:
        raise ValueError(
            f"{file}: unsupported document type {suffix or '(none)'!r}; give "
            + ", ".join(DOCUMENT_SUFFIXES)
        )
    return Document(name=file.name, text=text)


def read_documents(paths: Sequence[str | Path]) -> list[Document]:
    """Read several documents (see :func:`read_document`), keeping their order."""
    return [read_document(path) for path in paths]


def split_document(document: Document, max_chars: int) -> list[Document]:
    """Split a long document into parts of at most ``max_chars`` characters.

    Paragraphs (blank-line separated) are kept whole where they fit; a longer paragraph
    is cut at whitespace. A document that fits is returned as it is; an empty one gives
    no part.

    Args:
        document: The document.
        max_chars: The largest part.

    Returns:
        The parts, named ``"<name> (part i of n)"`` when there are several.
    """
    if max_chars < 1:
        raise ValueError(f"max_doc_chars must be positive, not {max_chars}")
    text = document.text.strip()
    if not text:
        return []
    if len(text) <= max_chars:
        return [Document(name=document.name, text=text)]
    pieces: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text):
        paragraph = paragraph.strip()
        while len(paragraph) > max_chars:
            cut = paragraph.rfind(" ", 0, max_chars + 1)
            cut = cut if cut > max_chars // 2 else max_chars
            pieces.append(paragraph[:cut].strip())
            paragraph = paragraph[cut:].strip()
        if paragraph:
            pieces.append(paragraph)
    parts: list[str] = []
    current = ""
    for piece in pieces:
        joined = f"{current}\n\n{piece}" if current else piece
        if len(joined) <= max_chars:
            current = joined
        else:
            parts.append(current)
            current = piece
    if current:
        parts.append(current)
    n = len(parts)
    return [
        Document(name=f"{document.name} (part {i} of {n})", text=part)
        for i, part in enumerate(parts, start=1)
    ]


# --- answer formats (what each prompt asks for; plural/random answers from these) ---


class _AnswerPerspective(BaseModel):
    perspective: str = Field(description="One sentence.")
    evidence: str = Field(description="The supporting passage from the document.")


class _AnswerStakeholder(BaseModel):
    characteristics: str = Field(description="One sentence: who they are.")
    perspectives: list[_AnswerPerspective]


class ExtractionAnswer(RootModel[dict[str, _AnswerStakeholder]]):
    """Step 1's answer: stakeholder name → characteristics and perspectives."""


class _AnswerGroupPerspective(BaseModel):
    perspective: str
    evidence: list[str]
    documents: list[str]


class _AnswerGroup(BaseModel):
    name: str
    characteristics: str
    simple_role: str
    members: list[str]
    perspectives: list[_AnswerGroupPerspective]


class GroupingAnswer(BaseModel):
    """Step 1b's answer: the consolidated stakeholder groups."""

    groups: list[_AnswerGroup]


class _AnswerPersona(BaseModel):
    name: str
    demographics: str
    perspective: str
    specialty: str
    psychological_traits: str
    social_relationships: str


class PersonaAnswer(BaseModel):
    """Step 2's answer: one persona per perspective of a group."""

    personas: list[_AnswerPersona]


EXTRACT_FORMAT = JsonFormat(json_schema=ExtractionAnswer.model_json_schema())
GROUP_FORMAT = JsonFormat(json_schema=GroupingAnswer.model_json_schema())
PERSONA_FORMAT = JsonFormat(json_schema=PersonaAnswer.model_json_schema())


# --- tolerant parsing -------------------------------------------------------------

_FENCE = re.compile(r"```[ \t]*[A-Za-z0-9_-]*[ \t]*\n?(.*?)```", re.DOTALL)


def _json_value(text: str) -> Any:
    """The answer's JSON value (object or list; fenced preferred), or None if there is none."""
    text = join_surrogate_escapes(text or "")
    for body in reversed(_FENCE.findall(text)):
        for loader in (json.loads, json_repair.loads):
            try:
                value = loader(body)
            except Exception:  # json_repair can raise on pathological input
                continue
            if isinstance(value, (dict, list)):
                return value
    try:
        value = json.loads(text.strip())
    except (ValueError, RecursionError):  # RecursionError: nested about 1,000 deep
        value = None
    if isinstance(value, (dict, list)):
        return value
    found = extract_json_object(text)
    if found is not None:
        return found
    start, end = text.find("["), text.rfind("]")
    if 0 <= start < end:
        try:
            value = json_repair.loads(text[start : end + 1])
        except Exception:  # json_repair can raise on pathological input
            return None
        if isinstance(value, list):
            return value
    return None


def _keyed(obj: dict[str, Any]) -> dict[str, Any]:
    return {normalise_key(k): v for k, v in obj.items()}


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return " … ".join(_text(v) for v in value if _text(v))
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_text(v)}" for k, v in value.items())
    return " ".join(str(value).split())


def _texts(value: Any) -> list[str]:
    items = value if isinstance(value, list) else [value]
    return [t for t in (_text(v) for v in items) if t]


def _names_one(keyed: dict[str, Any], *keys: str) -> bool:
    """Whether the object is itself one entry (a string under a name key)."""
    return any(isinstance(keyed.get(key), str) for key in keys)


def _first(obj: dict[str, Any], *keys: str) -> Any:
    for key in keys:
        if key in obj and obj[key] not in (None, "", [], {}):
            return obj[key]
    return None


def _unwrap(value: Any, *keys: str) -> Any:
    """``{"stakeholders": X}`` → X (one level, any of ``keys``)."""
    if isinstance(value, dict) and len(value) == 1:
        keyed = _keyed(value)
        for key in keys:
            if key in keyed and isinstance(keyed[key], (dict, list)):
                return keyed[key]
    return value


def _perspectives(value: Any) -> list[ExtractedPerspective]:
    result = []
    for entry in value if isinstance(value, list) else [value]:
        if isinstance(entry, dict):
            keyed = _keyed(entry)
            text = _text(_first(keyed, "perspective", "opinion", "dimension", "view", "text"))
            evidence = _text(_first(keyed, "evidence", "supporting_evidence", "quote", "quotes"))
        else:
            text, evidence = _text(entry), ""
        if text:
            result.append(ExtractedPerspective(perspective=text, evidence=evidence))
    return result


def parse_extraction(text: str, document: str) -> list[ExtractedStakeholder] | None:
    """Parse step 1's answer.

    Accepts ``{name: {characteristics, perspectives}}`` (the paper's shape), a list of
    objects with a ``name`` (or ``stakeholder``) key, either wrapped in
    ``{"stakeholders": ...}``, perspectives given as objects or plain strings, and
    evidence as a string or a list.

    Args:
        text: The model's answer.
        document: The document (or part) name recorded on each stakeholder.

    Returns:
        The stakeholders (empty for an explicit ``{}`` or ``[]``), or None when the
        answer holds no JSON.
    """
    value = _unwrap(_json_value(text), "stakeholders", "stakeholder_list")
    if value is None:
        return None
    entries: list[tuple[str, Any]] = []
    if isinstance(value, dict):
        keyed = _keyed(value)
        if _names_one(keyed, "name", "stakeholder", "stakeholder_name"):
            entries = [("", value)]  # a single stakeholder object
        else:
            entries = [(str(k), v) for k, v in value.items()]
    else:
        entries = [("", v) for v in value]
    result = []
    for name, body in entries:
        if isinstance(body, dict):
            keyed = _keyed(body)
            name = name or _text(_first(keyed, "name", "stakeholder", "stakeholder_name"))
            characteristics = _text(_first(keyed, "characteristics", "description", "who"))
            perspectives = _perspectives(_first(keyed, "perspectives", "perspective") or [])
        elif isinstance(body, list) and name:
            characteristics, perspectives = "", _perspectives(body)
        else:
            continue
        name = " ".join(name.split())
        if name:
            result.append(
                ExtractedStakeholder(
                    name=name,
                    characteristics=characteristics,
                    perspectives=perspectives,
                    document=document,
                )
            )
    return result


def _group_perspectives(value: Any) -> list[GroupPerspective]:
    result = []
    for entry in value if isinstance(value, list) else [value]:
        if isinstance(entry, dict):
            keyed = _keyed(entry)
            text = _text(_first(keyed, "perspective", "opinion", "dimension", "text"))
            evidence = _texts(_first(keyed, "evidence", "supporting_evidence", "quotes"))
            documents = _texts(_first(keyed, "documents", "document", "sources"))
        else:
            text, evidence, documents = _text(entry), [], []
        if text:
            result.append(
                GroupPerspective(perspective=text, evidence=evidence, documents=documents)
            )
    return result


def parse_grouping(text: str) -> list[StakeholderGroup] | None:
    """Parse step 1b's answer into groups without personas.

    Accepts ``{"groups": [...]}``, a bare list of groups, or ``{group name: {...}}``;
    perspectives as objects or strings. Groups named alike are merged.

    Args:
        text: The model's answer.

    Returns:
        The groups, or None when no group could be read.
    """
    value = _unwrap(_json_value(text), "groups", "stakeholder_groups")
    if isinstance(value, dict):
        keyed = _keyed(value)
        if _names_one(keyed, "name", "group", "group_name"):
            value = [value]
        else:
            value = [
                {"name": k, **v} if isinstance(v, dict) else {"name": k, "perspectives": v}
                for k, v in value.items()
            ]
    if not isinstance(value, list):
        return None
    groups: dict[str, StakeholderGroup] = {}
    for entry in value:
        if not isinstance(entry, dict):
            continue
        keyed = _keyed(entry)
        name = _text(_first(keyed, "name", "group", "group_name", "stakeholder_group"))
        if not name:
            continue
        perspectives = _group_perspectives(_first(keyed, "perspectives", "perspective") or [])
        members = _texts(_first(keyed, "members", "stakeholders"))
        key = name_key(name)
        if key in groups:
            group = groups[key]
            group.perspective_evidence += perspectives
            group.perspectives += [p.perspective for p in perspectives]
            group.members += members
            continue
        characteristics = _text(_first(keyed, "characteristics", "description"))
        try:
            groups[key] = StakeholderGroup(
                name=name,
                characteristics=characteristics,
                simple_role=_text(_first(keyed, "simple_role", "role", "role_description")),
                members=members,
                perspectives=[p.perspective for p in perspectives],
                perspective_evidence=perspectives,
            )
        except ValidationError:  # a name pydantic cannot read (a lone surrogate)
            continue
    return list(groups.values()) or None


def parse_personas(text: str) -> list[dict[str, Any]]:
    """Parse step 2's answer into persona dicts (not yet validated).

    Accepts ``{"personas": [...]}``, the paper's ``{group name: [...]}``, a bare list,
    or a single persona object; keys in either spelling (``Demographic Information``
    or ``demographics``).

    Args:
        text: The model's answer.

    Returns:
        The persona objects found (empty when none).
    """
    value = _unwrap(_json_value(text), "personas")
    if isinstance(value, dict):
        keyed = _keyed(value)
        if _names_one(keyed, "name", "full_name"):
            value = [value]
        else:
            lists = [v for v in value.values() if isinstance(v, list)]
            value = [item for v in lists for item in v]
    if not isinstance(value, list):
        return []
    return [entry for entry in value if isinstance(entry, dict)]


# --- prompts ------------------------------------------------------------------------


def persona_prompts(prompts: str | Path | None = None) -> dict[str, str]:
    """The three persona-creation templates (the user's folder first), checked.

    Args:
        prompts: Optional folder of replacement templates.

    Returns:
        Template file name → text.
    """
    return {
        EXTRACT: load_template(EXTRACT, EXTRACT_FIELDS, {"task_description", "document"}, prompts),
        GROUP: load_template(GROUP, GROUP_FIELDS, GROUP_FIELDS, prompts),
        PERSONA: load_template(
            PERSONA, PERSONA_FIELDS, {"task_description", "perspectives"}, prompts
        ),
    }


def _prompts_hash(templates: dict[str, str]) -> str:
    return cache_key({"prompts": templates})


def _stakeholders_block(stakeholders: list[ExtractedStakeholder]) -> str:
    entries = [
        {
            "document": s.document,
            "stakeholder": s.name,
            "characteristics": s.characteristics,
            "perspectives": [p.model_dump() for p in s.perspectives],
        }
        for s in stakeholders
    ]
    return json.dumps(entries, ensure_ascii=False, indent=2)


def _perspectives_block(group: StakeholderGroup) -> str:
    lines = []
    evidence = {p.perspective: p.evidence for p in group.perspective_evidence}
    for i, perspective in enumerate(group.perspectives, start=1):
        lines.append(f"{i}. {perspective}")
        quotes = evidence.get(perspective) or []
        if quotes:
            lines.append(f"   Evidence: {quotes[0]}")
    return "\n".join(lines)


# --- the pipeline -------------------------------------------------------------------


class _Meter:
    """Calls and tokens spent."""

    def __init__(self) -> None:
        self.calls = 0
        self.input_tokens = 0
        self.output_tokens = 0

    def add(self, output: ModelOutput) -> None:
        self.calls += 1
        if output.usage is not None:
            self.input_tokens += output.usage.input_tokens
            self.output_tokens += output.usage.output_tokens

    def usage(self) -> PersonaUsage:
        return PersonaUsage(
            calls=self.calls, input_tokens=self.input_tokens, output_tokens=self.output_tokens
        )


async def _ask(
    model: Model, prompt: str, answer_format: JsonFormat, config: GenerateConfig, meter: _Meter
) -> str:
    message = declare_answer_format(ChatMessageUser(content=prompt), answer_format)
    output = await model.generate([message], config=config)
    meter.add(output)
    return output.completion


def persona_config(seed: int | None = PERSONA_SEED) -> GenerateConfig:
    """The generation config of persona creation: temperature 0 and a seed.

    Args:
        seed: The generation seed (None: unseeded). ``maj_eval`` passes its own ``seed``.

    Returns:
        The config.
    """
    return GenerateConfig(temperature=0.0, seed=seed)


def _default_config(config: GenerateConfig | None) -> GenerateConfig:
    return persona_config() if config is None else config


def _resolve(model: Model | str | None) -> Model:
    return model if isinstance(model, Model) else get_model(model)


def _unique_name(name: str, group: str, taken: set[str]) -> str:
    candidate, n = name, 1
    while name_key(candidate) in taken:
        n += 1
        candidate = f"{name} ({group})" if n == 2 else f"{name} ({group} {n})"
    taken.add(name_key(candidate))
    return candidate


def _fallback_groups(stakeholders: list[ExtractedStakeholder]) -> list[StakeholderGroup]:
    """One group per distinct stakeholder name, when the grouping answer is unreadable."""
    groups: dict[str, StakeholderGroup] = {}
    for s in stakeholders:
        evidence = [
            GroupPerspective(
                perspective=p.perspective,
                evidence=[p.evidence] if p.evidence else [],
                documents=[s.document],
            )
            for p in s.perspectives
        ]
        group = groups.setdefault(
            name_key(s.name), StakeholderGroup(name=s.name, characteristics=s.characteristics)
        )
        group.members.append(s.name)
        group.perspective_evidence += evidence
        group.perspectives += [p.perspective for p in evidence]
    return list(groups.values())


def _personas_for(
    group: StakeholderGroup, answer: str, taken: set[str], notes: list[str]
) -> list[Persona]:
    personas = []
    drafts = parse_personas(answer)
    for i, draft in enumerate(drafts):
        data = persona_fields(draft)
        for field in PERSONA_ATTRIBUTES:
            data[field] = _text(data.get(field))
        if not data["perspective"] and i < len(group.perspectives):
            # no perspective written: the group's perspective this persona was asked for
            data["perspective"] = group.perspectives[i]
        data["group"] = group.name
        try:
            persona = Persona.model_validate(data)
        except ValidationError as ex:
            notes.append(f"group {group.name!r}: persona {i + 1} skipped ({ex.errors()[0]['msg']})")
            continue
        unique = _unique_name(persona.name, group.name, taken)
        if unique != persona.name:
            notes.append(f"group {group.name!r}: persona {persona.name!r} renamed {unique!r}")
            persona.name = unique
        personas.append(persona)
    if drafts and len(drafts) != len(group.perspectives):
        notes.append(
            f"group {group.name!r}: {len(drafts)} personas written for "
            f"{len(group.perspectives)} perspectives"
        )
    return personas


async def create_personas(
    documents: Sequence[Document],
    task_description: str,
    task: str = "",
    model: Model | str | None = None,
    prompts: str | Path | None = None,
    max_doc_chars: int = DEFAULT_MAX_DOC_CHARS,
    config: GenerateConfig | None = None,
) -> PersonaSet:
    """Create stakeholder personas from documents (no cache; see :func:`cached_personas`).

    Args:
        documents: The documents (research papers, interview studies, guidelines).
        task_description: The evaluation task, as the model is told it.
        task: The task's name, recorded (e.g. ``mslr_cochrane``).
        model: The model (a name, a Model, or None for the active model; in a solver
            pass ``get_model(role="persona_builder")``).
        prompts: Optional folder of replacement templates (``maj_extract.txt``,
            ``maj_group.txt``, ``maj_persona.txt``).
        max_doc_chars: Longer documents are split into parts of at most this size, one
            extraction call each.
        config: Generation config of every call (default: :func:`persona_config`,
            temperature 0 with seed :data:`PERSONA_SEED`).

    Returns:
        The persona set (``origin.kind == "documents"``), with calls and tokens in
        ``usage`` and anything worked around in ``notes``.

    Raises:
        PersonaCreationError: No stakeholder was found in any document, or no
            persona could be read.
    """
    templates = persona_prompts(prompts)
    config = _default_config(config)
    llm = _resolve(model)
    meter = _Meter()
    notes: list[str] = []

    # step 1: extraction, one call per chunk
    chunked = [(doc, split_document(doc, max_doc_chars)) for doc in documents]
    chunks = [chunk for _, parts in chunked for chunk in parts]
    for doc, parts in chunked:
        if not parts:
            notes.append(f"{doc.name}: empty document, nothing extracted")

    async def extract(chunk: Document) -> str:
        prompt = templates[EXTRACT].format(
            task_description=task_description, document_name=chunk.name, document=chunk.text
        )
        return await _ask(llm, prompt, EXTRACT_FORMAT, config, meter)

    async with span("extract stakeholders"):
        answers = await collect(*(extract(chunk) for chunk in chunks))
    stakeholders: list[ExtractedStakeholder] = []
    found: dict[str, int] = {}
    for chunk, answer in zip(chunks, answers):
        parsed = parse_extraction(answer, chunk.name)
        if parsed is None:
            notes.append(f"{chunk.name}: extraction answer holds no JSON; nothing extracted")
            parsed = []
        elif not parsed:
            notes.append(f"{chunk.name}: no relevant stakeholder found")
        stakeholders += parsed
        found[chunk.name] = len(parsed)
    infos = []
    for doc, parts in chunked:
        infos.append(
            DocumentInfo(
                name=doc.name,
                sha256=doc.sha256,
                chars=len(doc.text),
                chunks=len(parts),
                stakeholders=sum(found.get(part.name, 0) for part in parts),
            )
        )
    if not stakeholders:
        raise PersonaCreationError(
            f"no stakeholder found in {len(documents)} document(s) ({meter.calls} extraction "
            "call(s)); check that the documents discuss the people involved in the task. "
            + " ".join(notes)
        )

    # step 1b: grouping, one call
    prompt = templates[GROUP].format(
        task_description=task_description, stakeholders=_stakeholders_block(stakeholders)
    )
    async with span("group stakeholders"):
        groups = parse_grouping(await _ask(llm, prompt, GROUP_FORMAT, config, meter))
    if groups is None:
        notes.append("grouping answer unreadable: one group per extracted stakeholder name")
        groups = _fallback_groups(stakeholders)
    usable = []
    for group in groups:
        if group.perspectives:
            usable.append(group)
        else:
            notes.append(f"group {group.name!r} has no perspective and was dropped")

    # step 2: personas, one call per group
    async def write(group: StakeholderGroup) -> str:
        prompt = templates[PERSONA].format(
            task_description=task_description,
            group=group.name,
            characteristics=group.characteristics or "(no description)",
            perspectives=_perspectives_block(group),
            count=len(group.perspectives),
        )
        return await _ask(llm, prompt, PERSONA_FORMAT, config, meter)

    async with span("write personas"):
        persona_answers = await collect(*(write(group) for group in usable))
    taken: set[str] = set()
    finished = []
    for group, answer in zip(usable, persona_answers):
        group.personas = _personas_for(group, answer, taken, notes)
        if group.personas:
            finished.append(group)
        else:
            notes.append(f"group {group.name!r}: no persona could be read; group dropped")
    if not finished:
        raise PersonaCreationError(
            f"{len(stakeholders)} stakeholder(s) found, but no persona could be read from the "
            f"answers for {len(usable)} group(s). " + " ".join(notes)
        )

    return PersonaSet(
        task=task,
        task_description=task_description,
        groups=finished,
        origin=PersonaOrigin(
            kind="documents",
            documents=infos,
            model=str(llm),
            prompts_hash=_prompts_hash(templates),
            created=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            config=config.model_dump(exclude_none=True),
        ),
        usage=meter.usage(),
        stakeholders=stakeholders,
        notes=notes,
    )


def persona_cache_key(
    documents: Sequence[Document],
    task_description: str,
    task: str = "",
    model: Model | str | None = None,
    prompts: str | Path | None = None,
    max_doc_chars: int = DEFAULT_MAX_DOC_CHARS,
    config: GenerateConfig | None = None,
) -> str:
    """The cache key: SHA-256 over everything the created set depends on.

    That is the task and its description, the documents (names and contents), the
    model (name and ``-M`` arguments), the three prompt templates, ``max_doc_chars``
    and the generation config.
    """
    llm = _resolve(model)
    return cache_key(
        {
            "version": 1,
            "task": task,
            "task_description": task_description,
            "documents": [[doc.name, doc.sha256] for doc in documents],
            "model": str(llm),
            "model_args": llm.model_args,
            "prompts": persona_prompts(prompts),
            "max_doc_chars": max_doc_chars,
            "config": _default_config(config).model_dump(exclude_none=True),
        }
    )


async def cached_personas(
    documents: Sequence[Document],
    task_description: str,
    task: str = "",
    model: Model | str | None = None,
    prompts: str | Path | None = None,
    max_doc_chars: int = DEFAULT_MAX_DOC_CHARS,
    config: GenerateConfig | None = None,
    cache: bool = True,
) -> tuple[PersonaSet, bool]:
    """:func:`create_personas` through the disk cache.

    The cache is ``$INSPECT_PLURAL_CACHE/personas`` (else
    ``~/.cache/inspect_plural/personas``), one file per :func:`persona_cache_key`.
    A hit makes no model call; the set's ``usage`` still records what creating it cost.

    Args:
        documents: As for :func:`create_personas`.
        task_description: As for :func:`create_personas`.
        task: As for :func:`create_personas`.
        model: As for :func:`create_personas`.
        prompts: As for :func:`create_personas`.
        max_doc_chars: As for :func:`create_personas`.
        config: As for :func:`create_personas`.
        cache: False skips the lookup (the new set is still stored).

    Returns:
        The persona set, and whether it came from the cache.
    """
    llm = _resolve(model)
    key = persona_cache_key(documents, task_description, task, llm, prompts, max_doc_chars, config)
    if cache:
        hit = read_cached(key)
        if hit is not None:
            return hit, True
    created = await create_personas(
        documents, task_description, task, llm, prompts, max_doc_chars, config
    )
    created.origin.cache_key = key
    write_cached(key, created)
    return created, False


def make_personas(
    documents: Sequence[Document],
    task_description: str,
    task: str = "",
    model: Model | str | None = None,
    model_args: dict[str, Any] | None = None,
    prompts: str | Path | None = None,
    max_doc_chars: int = DEFAULT_MAX_DOC_CHARS,
    config: GenerateConfig | None = None,
    cache: bool = True,
) -> tuple[PersonaSet, bool]:
    """:func:`cached_personas` for code outside an eval (the command line), synchronous.

    Args:
        documents: As for :func:`create_personas`.
        task_description: As for :func:`create_personas`.
        task: As for :func:`create_personas`.
        model: A model name (e.g. ``openai/gpt-4.1``) or Model.
        model_args: Model arguments (``-M``) for a model given by name.
        prompts: As for :func:`create_personas`.
        max_doc_chars: As for :func:`create_personas`.
        config: As for :func:`create_personas`.
        cache: As for :func:`cached_personas`.

    Returns:
        The persona set, and whether it came from the cache.
    """
    llm = model if isinstance(model, Model) else get_model(model, **(model_args or {}))
    return asyncio.run(
        cached_personas(
            documents, task_description, task, llm, prompts, max_doc_chars, config, cache
        )
    )


async def personas_for_task(
    task: str,
    task_description: str,
    personas: str | Path | None = None,
    documents: Sequence[str | Path | Document] = (),
    model: Model | str | None = None,
    prompts: str | Path | None = None,
    max_doc_chars: int = DEFAULT_MAX_DOC_CHARS,
    config: GenerateConfig | None = None,
) -> tuple[PersonaSet, int]:
    """The persona set a task runs with: created from documents, read from a file, or shipped.

    Args:
        task: The task name (its shipped default is used when neither ``personas`` nor
            ``documents`` is given).
        task_description: The task description (used only to create from documents).
        personas: A persona file or the name of a shipped set.
        documents: Documents (paths or :class:`Document`) to create the set from,
            through the disk cache (:func:`cached_personas`).
        model: The creating model (e.g. ``get_model(role="persona_builder")``).
        prompts: Folder of replacement templates.
        max_doc_chars: As for :func:`create_personas`.
        config: As for :func:`create_personas`.

    Returns:
        The set, and the model calls made now (0 for a file, a default or a cache hit).

    Raises:
        ValueError: Both ``personas`` and ``documents`` given.
        PersonaFileError: The file is invalid, or the task ships no default.
        PersonaCreationError: Creation found no stakeholder or wrote no persona.
    """
    if personas is not None and documents:
        raise ValueError("give a persona file or documents to create personas from, not both")
    if documents:
        docs = [d if isinstance(d, Document) else read_document(d) for d in documents]
        created, hit = await cached_personas(
            docs, task_description, task, model, prompts, max_doc_chars, config
        )
        return created, 0 if hit else created.usage.calls
    if personas is not None:
        return load_personas(personas), 0
    if task not in DEFAULT_PERSONA_SETS:
        raise PersonaFileError(
            f"task {task!r} ships no default persona set: give a persona file (written by "
            "`inspect-plural personas`) or documents to create one from"
        )
    return default_personas(task), 0
