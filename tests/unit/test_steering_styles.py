"""Santurkar et al.'s three steering styles, and the package's own, as prompt openings."""

from __future__ import annotations

import pytest

from inspect_plural.solvers._steering import attribute_name, steer_styles, steered_population


def test_styles_name_the_group_each_their_own_way() -> None:
    group = "POLPARTY=Republican"
    qa = steered_population(group, "qa")
    bio = steered_population(group, "bio")
    portray = steered_population(group, "portray")
    assert qa.startswith("Question: What is your political party?\nAnswer: Republican")
    assert "Description: My political party is Republican." in bio
    assert portray.startswith("Answer the following as if you were a person whose political")
    assert steered_population(group) == 'Several people whose profile reads "POLPARTY: Republican"'
    assert len({qa, bio, portray, steered_population(group)}) == 4
    # a dimension the package does not name reads as written
    assert attribute_name("country_of_birth") == "country of birth"
    assert "My country of birth is Peru." in steered_population("country_of_birth=Peru", "bio")


def test_style_option_values() -> None:
    assert steer_styles(None) == ["population"]
    assert steer_styles("santurkar") == ["qa", "bio", "portray"]
    assert steer_styles("population,santurkar,qa") == ["population", "qa", "bio", "portray"]
    assert steer_styles(["bio"]) == ["bio"]
    with pytest.raises(ValueError, match="santurkar"):
        steer_styles("poetry")
