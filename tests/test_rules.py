import pytest
from hypothesis import given

from conftest import rules_strategy
from solver import Rank, Rules, RulesError, Suit


def test_defaults_are_amsterdam():
    assert Rules() == Rules.amsterdam()
    r = Rules()
    assert (r.trump_duty, r.undertrump, r.roem, r.stuk, r.pit, r.pit_bonus, r.nat, r.multiplier,
            r.revoke_penalty) == ("amsterdam", "forbidden", "table", "trick", "any", 100,
                                  "majority", 1, 100)


def test_rotterdam_changes_only_trump_duty():
    assert Rules.rotterdam().to_dict() == {**Rules().to_dict(), "trump_duty": "rotterdam"}


@given(rules_strategy)
def test_to_dict_round_trips(rules):
    assert Rules(**rules.to_dict()) == rules
    assert hash(Rules(**rules.to_dict())) == hash(rules)


@given(rules_strategy, rules_strategy)
def test_replace_sets_the_options_it_names_and_keeps_the_others(rules, other):
    changes = {name: value for name, value in other.to_dict().items() if name in ("roem", "nat",
                                                                               "pit_bonus")}
    assert rules.replace(**changes) == Rules(**{**rules.to_dict(), **changes})
    assert rules.replace() == rules


@pytest.mark.parametrize("changes, error", [({"bogus": 1}, "unknown rule option 'bogus'"),
                                            ({"pit_bonus": -1}, "pit_bonus"),
                                            ({"players": 5}, "players")])
def test_replace_checks_the_changes_as_rules_does(changes, error):
    with pytest.raises(RulesError, match=error):
        Rules().replace(**changes)


def test_ten_is_named_T_or_10_in_four_of_a_kind():
    assert Rules(four_of_a_kind={"10": 150}) == Rules(four_of_a_kind={"T": 150})
    assert Rules(four_of_a_kind={"10": 150}).four_of_a_kind_value(Rank.TEN) == 150


def test_nines_score_nothing_by_default():
    assert Rules().four_of_a_kind_value(Rank.NINE) == 0
    assert Rules().four_of_a_kind_value(Rank.JACK) == 200


def test_double_suits_accept_letters():
    assert Rules(double_suits={"S"}).is_double(Suit.S)
    assert not Rules(double_suits=["S"]).is_double("H")


def test_unknown_option_lists_the_options():
    with pytest.raises(RulesError, match="unknown rule option 'trumpduty'.*trump_duty"):
        Rules(trumpduty="rotterdam")


@pytest.mark.parametrize("option, value, allowed", [
    ("trump_duty", "utrecht", "amsterdam, rotterdam"),
    ("undertrump", "never", "forbidden, must, free"),
    ("roem", "yes", "table, hand, none"),
    ("stuk", "always", "trick, hand, none"),
    ("pit", "all", "any, playing, none"),
    ("nat", "81", "majority, 82, none"),
    ("multiplier", 3, "1, 2, 4, 8"),
])
def test_unknown_value_lists_the_allowed_values(option, value, allowed):
    with pytest.raises(RulesError, match=allowed):
        Rules(**{option: value})


@pytest.mark.parametrize("option, value", [
    ("pit_bonus", -1), ("revoke_penalty", "100"), ("four_of_a_kind", {"X": 100}),
    ("double_suits", ["Z"]), ("hand_roem_needs_trick", "yes"),
])
def test_bad_values_raise_rules_error(option, value):
    with pytest.raises(RulesError):
        Rules(**{option: value})


def test_rules_error_is_a_value_error():
    assert issubclass(RulesError, ValueError)


def test_nat_82_may_be_given_as_a_number_from_json():
    assert Rules(nat=82) == Rules(nat="82")


def test_repr_shows_what_differs_from_the_defaults():
    assert repr(Rules.rotterdam(double_suits=["S"])) == \
        "Rules(trump_duty='rotterdam', double_suits=['S'])"


def test_the_rules_reference_describes_every_option():
    from dataclasses import fields
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    reference = (root / "docs" / "rules.md").read_text()
    for option in fields(Rules):
        assert f"`{option.name}`" in reference, option.name
    assert "docs/rules.md" in Rules.__doc__


def test_the_readme_links_only_files_inside_the_project():
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    readme = (root / "README.md").read_text()
    assert "../shared" not in readme
    for target in re.findall(r"\]\(([^)#]+)\)", readme):
        if "://" not in target:
            assert (root / target).exists(), target


def test_every_section_of_the_rules_reference_cited_in_the_code_exists():
    import re
    from pathlib import Path
    import solver
    root = Path(__file__).resolve().parents[1]
    headings = set(re.findall(r"^#+ (.+)$", (root / "docs" / "rules.md").read_text(), re.M))
    cited = []
    package = Path(solver.__file__).parent      # the source tree, or an installed wheel
    sources = [p for suffix in ("py", "pyx", "pxd", "pxi") for p in package.rglob(f"*.{suffix}")]
    for path in sources:
        text = re.sub(r"\s*\n\s*#?\s*", " ", path.read_text())   # comments and docstrings as one line
        assert "RULES.md" not in text, path
        for names in re.findall(r'docs/rules\.md,? \(?("[^"]+"(?:,? (?:and )?"[^"]+")*)', text):
            cited += [(path.name, name) for name in re.findall(r'"([^"]+)"', names)]
    assert len(cited) >= 8
    for where, name in cited:
        assert name in headings, f"{where} cites docs/rules.md, {name!r}, which has no such heading"
