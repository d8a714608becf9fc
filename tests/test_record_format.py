"""The record format: the JSON Schema and the records it admits, the format version, JSON Lines
of many records, a match of 16 rounds, and `klaverjas analyse games.jsonl`."""
import json
from dataclasses import fields
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

import solver.model
from solver import GameRecord, RecordError, Rules, analyse_play
from solver.analysis.play import PlayStep
from solver.cli import main
from solver.model import record_schema
from solver.model.match import ROUNDS_IN_A_BOOM, Match
from solver.model.rules import _CHOICES, _MULTIPLIERS, MAX_AMOUNT

ROOT = Path(__file__).resolve().parents[1]
# The shipped file, from the package under test (the source tree or an installed wheel).
SCHEMA_FILE = Path(solver.model.__file__).parent / "record.schema.json"
GAME = json.loads((ROOT / "examples" / "game.json").read_text())
DEAL = GAME["deal"]
BASE = {"deal": DEAL, "dealer": "E", "trump": "S", "playing": "EW", "rules": "amsterdam",
        "played": "SK S9"}


def plain_validator():
    """The shipped schema in a validator that knows nothing of the package."""
    return Draft202012Validator(json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))


def example_records():
    for path in sorted((ROOT / "examples").glob("*.json")):
        yield path.name, json.loads(path.read_text())
    for path in sorted((ROOT / "examples").glob("*.jsonl")):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            yield f"{path.name}:{number}", json.loads(line)


# -- the schema ---------------------------------------------------------------------------------

def test_the_shipped_schema_is_the_one_built_from_the_model():
    assert SCHEMA_FILE.read_text(encoding="utf-8") == record_schema.schema_text(), \
        "run: python -m solver.model.record_schema > solver/model/record.schema.json"


def test_the_schema_is_a_valid_draft_2020_12_schema():
    Draft202012Validator.check_schema(GameRecord.json_schema())
    assert GameRecord.json_schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_json_schema_gives_a_fresh_copy_of_the_shipped_file():
    schema = GameRecord.json_schema()
    assert schema == json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    schema["anyOf"].append("colour")
    assert len(GameRecord.json_schema()["anyOf"]) == 2


def test_the_schemas_rule_options_are_the_models():
    options = GameRecord.json_schema()["$defs"]["rules"]["anyOf"][1]["properties"]
    assert list(options) == [f.name for f in fields(Rules)]
    for name, allowed in _CHOICES.items():
        extra = [82] if name == "nat" else []
        assert options[name]["enum"] == list(allowed) + extra
    assert options["multiplier"]["enum"] == list(_MULTIPLIERS)
    for name in ("pit_bonus", "revoke_penalty", "zero_bonus"):
        assert (options[name]["minimum"], options[name]["maximum"]) == (0, MAX_AMOUNT)
    assert options["four_of_a_kind"]["additionalProperties"]["maximum"] == MAX_AMOUNT
    assert {name: o["default"] for name, o in options.items()} == Rules().to_dict()


@pytest.mark.parametrize("name, data", list(example_records()), ids=lambda v: v if
                         isinstance(v, str) else "")
def test_every_record_in_examples_fits_the_schema(name, data):
    assert list(plain_validator().iter_errors(data)) == []
    GameRecord.from_dict(data)


# Records the reader accepts, in each form it accepts; the schema must admit them all.
VALID = [
    BASE,
    dict(BASE, dealer=None, leader="s"),
    dict(BASE, dealer=3, leader=2, chooser_leads=True),
    dict(BASE, trump=" s ", playing="we", rules=" Rotterdam "),
    dict(BASE, trump=3, playing=1),
    dict(BASE, trump="♠", played=["SK", " s 9 "]),
    dict(BASE, played=[]),
    dict(BASE, played="  "),
    dict(BASE, deal="n:♠A7.♥KQ9.♦9.♣87 jt.J.KQ108.10 KQ.A87.A7.9 98.T.J.AKQJ"),
    dict(BASE, deal="E:JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ A7.KQ9.9.87"),
    dict(BASE, format=1),
    dict(BASE, notation="en"),
    dict(BASE, notation="nl", deal="N:A7.HV9.9.87 B10.B.HV108.10 HV.A87.A7.9 98.10.B.AHVB",
         played="SH S9"),
    {k: v for k, v in GAME.items() if k != "deal"},
    dict(BASE, rules={}),
    dict(BASE, rules={"trump_duty": "rotterdam", "undertrump": "must", "roem": "hand",
                      "stuk": "hand", "four_of_a_kind": {"j": 200, "10": 100, " A ": 0},
                      "pit": "playing", "pit_bonus": 0, "double_suits": ["S", 2],
                      "nat": 82, "multiplier": 8, "revoke_penalty": 1000, "zero_bonus": 50,
                      "hand_roem_needs_trick": True}),
    dict(BASE, rules={"double_suits": "S, H"}),
    dict(BASE, rules={"double_suits": "S"}),
    dict(BASE, rules={"double_suits": ""}),
    dict(BASE, rules={"nat": "82"}),
]


@pytest.mark.parametrize("data", VALID)
def test_records_the_reader_accepts_fit_the_schema(data):
    GameRecord.from_dict(data)
    assert list(plain_validator().iter_errors(data)) == []


# A broken record and the field its error names. Each is refused by the schema alone (the
# plain validator) and by GameRecord, whose message names the field.
BROKEN = [
    (dict(BASE, trump="X"), "trump"),
    ({k: v for k, v in BASE.items() if k != "trump"}, "trump"),
    (dict(BASE, trump=None), "trump"),
    (dict(BASE, trump=4), "trump"),
    (dict(BASE, notation="nl", trump="C"), "trump"),
    (dict(BASE, playing="NE"), "playing"),
    ({k: v for k, v in BASE.items() if k != "playing"}, "playing"),
    (dict(BASE, dealer=4), "dealer"),
    (dict(BASE, dealer=True), "dealer"),
    (dict(BASE, dealer=None, leader="Q"), "leader"),
    (dict(BASE, dealer=None), "leader"),
    (dict(BASE, deal="N:AKQ"), "deal"),
    (dict(BASE, deal="N:A7.KQ9.9.87,JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ"), "deal"),
    (dict(BASE, deal="N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQX"), "deal"),
    (dict(BASE, deal="N:♥A7.♠KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ"), "deal"),
    (dict(BASE, deal=5), "deal"),
    (dict(BASE, deal=None), "deal"),
    (dict(BASE, rules="paris"), "rules"),
    (dict(BASE, rules=None), "rules"),
    (dict(BASE, rules=[1]), "rules"),
    (dict(BASE, rules={"trump_duty": "utrecht"}), "trump_duty"),
    (dict(BASE, rules={"pit_bonus": 2000}), "pit_bonus"),
    (dict(BASE, rules={"pit_bonus": -1}), "pit_bonus"),
    (dict(BASE, rules={"multiplier": 3}), "multiplier"),
    (dict(BASE, rules={"colour": 1}), "colour"),
    (dict(BASE, rules={"four_of_a_kind": {"X": 100}}), "four_of_a_kind"),
    (dict(BASE, rules={"double_suits": ["X"]}), "double_suits"),
    (dict(BASE, rules={"double_suits": {"S": 1}}), "double_suits"),
    (dict(BASE, rules={"hand_roem_needs_trick": 1}), "hand_roem_needs_trick"),
    (dict(BASE, played="SK,S9"), "played"),
    (dict(BASE, played=["SK", 5]), "played"),
    (dict(BASE, played=None), "played"),
    (dict(BASE, played="9S"), "played"),
    (dict(BASE, played=GAME["played"].split() + ["SA"]), "played"),
    (dict(BASE, chooser_leads="yes"), "chooser_leads"),
    (dict(BASE, notation="fr"), "notation"),
    (dict(BASE, colour="red"), "colour"),
    (dict(BASE, format=2), "format"),
    (dict(BASE, format="1"), "format"),
    (dict(BASE, format=0), "format"),
]


@pytest.mark.parametrize("data, field", BROKEN)
def test_the_schema_refuses_a_broken_record(data, field):
    assert list(plain_validator().iter_errors(data)) != []


@pytest.mark.parametrize("data, field", BROKEN)
def test_a_broken_record_is_a_record_error_naming_the_field(data, field):
    with pytest.raises(RecordError, match=field):
        GameRecord.from_dict(data)


def test_a_record_built_in_python_may_hold_numpy_integers():
    np = pytest.importorskip("numpy")
    data = dict(BASE, dealer=np.int64(1), trump=np.int8(3), playing=np.int64(1),
                rules={"pit_bonus": np.int64(90), "multiplier": np.int64(2)})
    record = GameRecord.from_dict(data)
    assert (record.dealer.name, record.trump.name, record.playing.name) == ("E", "S", "EW")
    assert record.rules == Rules(pit_bonus=90, multiplier=2)


def test_the_readers_own_words_are_kept():
    with pytest.raises(RecordError, match=r"field 'trump': unknown suit 'X': use one of C, D, H, S"):
        GameRecord.from_dict(dict(BASE, trump="X"))
    with pytest.raises(RecordError, match=r"field 'rules': rule pit_bonus=2000 must be a whole "
                                          r"number from 0 to 1000"):
        GameRecord.from_dict(dict(BASE, rules={"pit_bonus": 2000}))


def test_a_shape_only_the_schema_refuses_is_named_with_its_place_in_the_field():
    # Rules() itself reads a mapping's keys as suits; the record format takes a list or text.
    with pytest.raises(RecordError, match=r"field 'rules': double_suits \{'S': 1\} does not fit "
                                          r"the record format"):
        GameRecord.from_dict(dict(BASE, rules={"double_suits": {"S": 1}}))


def test_what_no_schema_can_state_is_left_to_the_reader():
    # Eight cards a hand and each card once: the shape fits, the deal does not.
    short = dict(BASE, deal="N:A7.KQ9.9.8 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ")
    assert list(plain_validator().iter_errors(short)) == []
    with pytest.raises(RecordError, match="field 'deal'"):
        GameRecord.from_dict(short)
    # A card played twice: each is a card, but the seat no longer holds it.
    twice = dict(BASE, played="SK SK")
    assert list(plain_validator().iter_errors(twice)) == []
    with pytest.raises(RecordError, match="field 'played': card 2, .* does not hold SK"):
        GameRecord.from_dict(twice)


def test_the_docs_publish_the_shipped_schema_and_describe_every_field():
    doc = (ROOT / "docs" / "record-format.md").read_text(encoding="utf-8")
    published = doc.split("## The schema\n", 1)[1].split("```json\n", 1)[1].split("```", 1)[0]
    assert published == SCHEMA_FILE.read_text(encoding="utf-8")
    described = doc.split("## The schema\n", 1)[0]
    schema = GameRecord.json_schema()
    options = schema["$defs"]["rules"]["anyOf"][1]["properties"]
    for name in [*schema["properties"], *options]:
        assert f"`{name}`" in described, name


# -- the format version -------------------------------------------------------------------------

def test_to_dict_writes_the_format_version():
    assert GameRecord.from_dict(BASE).to_dict()["format"] == 1 == record_schema.RECORD_FORMAT


def test_a_record_without_format_is_format_1():
    assert GameRecord.from_dict(BASE) == GameRecord.from_dict(dict(BASE, format=1))


def test_a_later_format_is_refused_saying_to_upgrade():
    with pytest.raises(RecordError, match=r"field 'format': format 2 is newer than this version "
                                          r"of klaverjas-solver reads .*upgrade"):
        GameRecord.from_dict(dict(BASE, format=2, bidder="N"))


# -- JSON Lines -----------------------------------------------------------------------------------

def test_json_lines_round_trip(tmp_path):
    records = [GameRecord.from_dict(GAME), GameRecord.from_dict(BASE)]
    path = tmp_path / "games.jsonl"
    GameRecord.dump_many(records, path)
    assert len(path.read_text().splitlines()) == 2
    assert GameRecord.load_many(path) == records


def test_json_lines_skip_blank_lines(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text("\n" + json.dumps(BASE) + "\n\n" + json.dumps(GAME) + "\n")
    assert len(GameRecord.load_many(path)) == 2


def test_a_bad_line_is_named_with_the_file(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(BASE) + "\n" + json.dumps(dict(BASE, trump="X")) + "\n")
    with pytest.raises(RecordError, match=r"games.jsonl, line 2: game record field 'trump'"):
        GameRecord.load_many(path)
    path.write_text(json.dumps(BASE) + "\n\n{not json\n")
    with pytest.raises(RecordError, match=r"line 3: game record is not valid JSON"):
        GameRecord.load_many(path)


def test_load_many_reads_records_in_the_dutch_notation(tmp_path):
    path = tmp_path / "games.jsonl"
    nl = {k: v for k, v in BASE.items() if k != "deal"}
    nl.update(deal="N:A7.HV9.9.87 B10.B.HV108.10 HV.A87.A7.9 98.10.B.AHVB", played="SH S9")
    path.write_text(json.dumps(nl) + "\n")
    assert GameRecord.load_many(path, notation="nl") == [GameRecord.from_dict(BASE)]


# -- a round's score and a match ----------------------------------------------------------------

@pytest.mark.parametrize("played", [GAME["played"], "HA HT H9 SJ"])
def test_a_records_scores_are_those_of_its_play_analysis(played):
    record = GameRecord.from_dict(dict(GAME, leader="S", chooser_leads=True, played=played))
    assert record.scores() == analyse_play(record).actual.scores


def test_an_unfinished_record_has_no_scores():
    assert GameRecord.from_dict(BASE).scores() is None


def test_a_boom_of_16_rounds_with_the_running_score():
    match = Match.load(ROOT / "examples" / "boom.jsonl")
    assert len(match.rounds) == ROUNDS_IN_A_BOOM and match.is_complete
    totals = {"NS": 0, "EW": 0}
    for score, running in zip(match.scores, match.running):
        totals = {team: totals[team] + score[team] for team in totals}
        assert running == totals
    assert match.totals == totals and match.winner is not None
    assert str(match).splitlines()[-1].startswith("After 16 of 16 rounds")


def test_a_match_round_trips_through_json_lines_and_dicts(tmp_path):
    match = Match([GameRecord.from_dict(GAME)] * 3)
    match.dump(tmp_path / "match.jsonl")
    assert Match.load(tmp_path / "match.jsonl") == match
    assert Match.from_dict(json.loads(json.dumps(match.to_dict()))) == match
    assert match.to_dict()["running"][-1] == {"NS": 3 * 43, "EW": 3 * 179}


def test_a_match_counts_a_revoke_as_the_end_of_its_round():
    revoke = GameRecord.from_dict(dict(GAME, leader="S", chooser_leads=True,
                                       played="HA HT H9 SJ"))
    assert Match([revoke]).totals == {"NS": 262, "EW": 0}


def test_a_match_refuses_an_unfinished_round_naming_it():
    with pytest.raises(RecordError, match=r"round 2 of the match stops after 2 cards"):
        Match([GameRecord.from_dict(GAME), GameRecord.from_dict(BASE)])


def test_a_match_has_at_most_16_rounds():
    with pytest.raises(RecordError, match="a match \\(boom\\) has 16 rounds; got 17"):
        Match([GameRecord.from_dict(GAME)] * 17)


def test_an_unfinished_boom_has_no_winner():
    match = Match([GameRecord.from_dict(GAME)])
    assert match.winner is None and not match.is_complete
    assert Match([]).totals == {"NS": 0, "EW": 0}


# -- klaverjas analyse games.jsonl --------------------------------------------------------------

@pytest.fixture
def games(tmp_path):
    path = tmp_path / "games.jsonl"
    revoke = dict(GAME, leader="S", chooser_leads=True, played="HA HT H9 SJ")
    path.write_text("".join(json.dumps(r) + "\n" for r in (GAME, BASE, revoke)))
    return path


def test_analyse_jsonl_prints_a_line_per_round_and_a_summary(games, capsys):
    assert main(["analyse", str(games)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].split()[0] == "round" and len(lines[1:lines.index("")]) == 3
    assert "NS 43, EW 179 (made)" in lines[1] and "unfinished" in lines[2]
    assert "NS 262, EW 0 (revoke)" in lines[3]
    assert "3 rounds, 37 cards judged, 1 revokes." in out
    assert "Mean double-dummy loss per round: N " in out and "Mistakes per trick" in out


def test_analyse_jsonl_json_gives_each_analysis_and_the_summary(games, capsys):
    assert main(["analyse", str(games), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    single = analyse_play(GameRecord.from_dict(GAME))
    assert data["rounds"][0] == json.loads(json.dumps(single.to_dict()))
    summary = data["summary"]
    assert summary["rounds"] == 3 and summary["revokes"] == 1
    lost = {seat: 0 for seat in "NESW"}
    for step in single.steps:
        lost[step.seat.name] += step.loss
    assert summary["mean_loss"] == pytest.approx(
        {seat: (value + sum(s["loss"] for r in data["rounds"][1:] for s in r["steps"]
                            if s["seat"] == seat)) / 3 for seat, value in lost.items()})
    assert sum(summary["mistakes_per_trick"].values()) == sum(
        1 for r in data["rounds"] for s in r["steps"] if s["loss"])


def test_analyse_jsonl_names_a_bad_line(tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(GAME) + "\n" + json.dumps(dict(BASE, playing="NE")) + "\n")
    assert main(["analyse", str(path)]) == 2
    assert "line 2: game record field 'playing'" in capsys.readouterr().err


def test_analyse_jsonl_of_a_missing_or_empty_file_is_an_error(tmp_path, capsys):
    assert main(["analyse", str(tmp_path / "none.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err
    (tmp_path / "empty.jsonl").write_text("\n")
    assert main(["analyse", str(tmp_path / "empty.jsonl")]) == 2
    assert "holds no game records" in capsys.readouterr().err


def test_analyse_jsonl_with_worlds_counts_single_dummy_mistakes(tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(dict(BASE, played="SK S9 SA SJ  HJ HA")) + "\n")
    assert main(["analyse", str(path), "--worlds", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["summary"]["mistakes"] == "single dummy"
    steps = [PlayStep.from_dict(s) for s in data["rounds"][0]["steps"]]
    assert sum(data["summary"]["mistakes_per_trick"].values()) == sum(
        1 for s in steps if s.verdict == "mistake")
    assert main(["analyse", str(path), "--worlds", "4"]) == 0
    assert "Mistakes per trick (a loss given what the player could know)" in \
        capsys.readouterr().out
