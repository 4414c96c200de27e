"""One meaning of data_dir: the option and the variable take a dataset's folder or the root."""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

import pytest

from inspect_plural.sources import (
    DATA_DIR_ENV,
    DataFileError,
    DataNotFoundError,
    data_folder,
    load_armis,
    load_brexit,
    load_epic,
)

DEMO = Path(str(resources.files("inspect_plural").joinpath("demo")))


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A data root holding brexit/, epic/ and lewidi/2023/ArMIS files (demo copies)."""
    data = tmp_path / "data"
    shutil.copytree(DEMO / "brexit", data / "brexit")
    shutil.copytree(DEMO / "epic", data / "epic")
    shutil.copytree(DEMO / "armis", data / "lewidi" / "2023")
    return data


@pytest.fixture(autouse=True)
def _no_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(DATA_DIR_ENV, raising=False)


@pytest.mark.parametrize("how", ["option", "variable"])
@pytest.mark.parametrize("level", ["root", "dataset"])
def test_the_option_and_the_variable_take_the_root_or_the_dataset_folder(
    how: str, level: str, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    named = root if level == "root" else root / "brexit"
    given = None
    if how == "option":
        given = str(named)
    else:
        monkeypatch.setenv(DATA_DIR_ENV, str(named))
    corpus = load_brexit(data_dir=given)
    assert len(corpus.items) > 0
    source = "data_dir" if how == "option" else DATA_DIR_ENV
    assert corpus.folder == (f"<{source}>/brexit" if level == "root" else f"<{source}>")
    epic = root / "epic" if level == "dataset" else root
    if how == "option":
        assert load_epic(data_dir=epic).folder.startswith("<data_dir>")
    else:
        monkeypatch.setenv(DATA_DIR_ENV, str(epic))
        assert load_epic().folder.startswith(f"<{DATA_DIR_ENV}>")


@pytest.mark.parametrize("how", ["option", "variable"])
def test_lewidi_datasets_follow_the_same_rule(
    how: str, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for named in (root, root / "lewidi" / "2023"):
        if how == "option":
            corpus = load_armis(data_dir=named)
        else:
            monkeypatch.setenv(DATA_DIR_ENV, str(named))
            corpus = load_armis()
        assert len(corpus.items) > 0 and corpus.folder.endswith(
            "/lewidi/2023" if named == root else ">"
        )


@pytest.mark.parametrize("how", ["option", "variable"])
def test_a_folder_that_does_not_exist_says_so(
    how: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = tmp_path / "no-such-folder"
    with pytest.raises(DataNotFoundError) as info:
        if how == "option":
            load_brexit(data_dir=missing)
        else:
            monkeypatch.setenv(DATA_DIR_ENV, str(missing))
            load_brexit()
    message = str(info.value)
    assert str(missing) in message and "does not exist" in message
    assert ("option data_dir" if how == "option" else DATA_DIR_ENV) in message
    assert "brexit/" in message and len(message.splitlines()) <= 3


def test_a_file_named_as_the_folder_says_so(tmp_path: Path) -> None:
    file = tmp_path / "file.txt"
    file.write_text("x", encoding="utf-8")
    with pytest.raises(DataNotFoundError, match="is a file"):
        load_brexit(data_dir=file)


def test_a_path_part_over_255_characters_is_a_short_error(tmp_path: Path) -> None:
    with pytest.raises(DataFileError) as info:
        load_brexit(data_dir=tmp_path / ("a" * 300))
    message = str(info.value)
    assert "option data_dir" in message and "longer than the file system allows" in message
    assert len(message) < 400


def test_labels_hold_no_absolute_path(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(root.parent)
    assert data_folder("data", "brexit").label == "data/brexit"
    assert data_folder(None, "brexit").label == "data/brexit"  # the default root
    assert data_folder("data/brexit", "brexit").label == "data/brexit"
    assert data_folder(str(root), "brexit").label == "<data_dir>/brexit"
    assert data_folder(str(root / "brexit"), "brexit").label == "<data_dir>"
    assert load_brexit(demo=True).folder == ""


@pytest.mark.parametrize(
    ("task", "folder", "subdir"),
    [
        ("brexit", "brexit", "brexit"),
        ("armis", "armis", "armis"),
        ("personaeval_literary", None, "personaeval"),
        ("per_doc", "per_doc", "per_doc"),
        ("mslr_cochrane", "mslr_cochrane", "mslr_cochrane"),
    ],
)
def test_every_family_logs_the_folder_read(
    task: str, folder: str | None, subdir: str, tmp_path: Path
) -> None:
    from tests.conftest import write_personaeval_fixture

    import inspect_plural

    root = tmp_path / "root"
    if folder is None:
        (root / subdir).mkdir(parents=True)
        write_personaeval_fixture(root / subdir, "literary", 6, 4)
    elif task == "mslr_cochrane":
        (root / subdir).mkdir(parents=True)
        for sheet in (DEMO / "mslr_cochrane").glob("cochrane_facets_*.tsv"):
            shutil.copy(sheet, root / subdir / sheet.name)
    else:
        shutil.copytree(DEMO / folder, root / subdir)
    made = getattr(inspect_plural, task)(data_dir=str(root))
    assert made.metadata is not None
    assert made.metadata["data_folder"] == f"<data_dir>/{subdir}"
    assert not made.metadata.get("demo")
