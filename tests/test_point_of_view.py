"""One point of view, and a record as a player writes it: solve --moves from the team to
move, team keys, rules and seats given as names or numbers, records without a deal, the
Dutch notation, and the messages for cards written the wrong way."""
import json
from pathlib import Path

import numpy as np
import pytest

from solver import (Card, Deal, Game, GameRecord, IllegalPlayError, NotationError, RecordError,
                    Rules, Seat, Solver, Suit, Team, DealError, solve)
from solver.cli import main
from solver.cli.parser import build_parser
from solver.model.scoring import final_scores

ROOT = Path(__file__).resolve().parents[1]
PBN = "N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ"
PBN_NL = "N:A7.HV9.9.87 B10.B.HV108.10 HV.A87.A7.9 98.10.B.AHVB"
DEAL = Deal.from_pbn(PBN)
POSITION = [PBN, "--trump", "S", "--leader", "S", "--playing", "EW"]


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# -- solve --moves from the team to move ---------------------------------------------------------

def test_moves_of_a_defender_are_signed_for_the_defenders_best_first(capsys):
    # S leads for NS, the defenders of EW's spades: ♥A is S's best card (+2 for NS).
    status, out, _ = run(capsys, "solve", *POSITION, "--moves")
    lines = out.splitlines()
    assert status == 0
    assert lines[0] == "S to play; points for NS, the team to move, after each card (best first):"
    assert lines[1].split() == ["♥A", "+2"]
    assert lines[-1].split() == ["♦7", "-282"]


def test_moves_of_the_playing_team_keep_its_sign(capsys):
    _, out, _ = run(capsys, "solve", *POSITION, "--played", "HA", "--moves")
    assert out.splitlines() == ["W to play; points for EW, the team to move, after each card "
                                "(best first):", "  ♥T  -2"]


def test_make_moves_say_what_true_means_for_the_defenders(capsys):
    _, out, _ = run(capsys, "solve", *POSITION, "--moves", "--objective", "make")
    lines = out.splitlines()
    assert "True if NS, the team to move, holds EW nat" in lines[0]
    assert lines[1].split() == ["♥A", "True"]


def test_moves_json_stays_for_the_playing_team(capsys):
    _, out, _ = run(capsys, "solve", *POSITION, "--moves", "--json")
    assert json.loads(out)["moves"]["HA"] == -2


def test_solve_help_says_which_view_each_output_takes():
    text = " ".join(build_parser()._subparsers._group_actions[0].choices["solve"]
                    .format_help().split())
    assert "for the team of the player to move" in text and "for the playing team" in text


# -- team keys ---------------------------------------------------------------------------------------

def test_totals_and_final_scores_share_their_keys():
    res = solve(DEAL, "S", "S", "EW")
    game = Game(DEAL, "S", "S", "EW")
    game.replay(res.line)
    scores = final_scores(game.tallies(), game.playing, game.trump, game.rules)
    assert set(res.totals) == set(scores) == {Team.NS, Team.EW}
    assert res.totals[Team.NS] == res.totals["NS"] == 102
    assert res.totals == {"NS": 102, "EW": 100} and scores["NS"] == scores[Team.NS]


def test_totals_are_letters_in_json():
    res = solve(DEAL, "S", "S", "EW")
    assert res.to_dict()["totals"] == {"NS": 102, "EW": 100}
    assert res.from_dict(json.loads(json.dumps(res.to_dict()))).totals[Team.EW] == 100


# -- rules, seats, suits and teams as the command line and records give them ----------------------

def test_rules_may_be_a_preset_name_or_options():
    assert solve(DEAL, "H", "N", "NS", rules="rotterdam").value == \
        solve(DEAL, "H", "N", "NS", rules=Rules.rotterdam()).value
    assert Solver(rules={"roem": "none"}).rules == Rules(roem="none")
    assert Game(DEAL, "H", "N", "NS", rules="rotterdam").rules == Rules.rotterdam()


def test_suits_seats_and_teams_may_be_their_numbers():
    assert (Suit.parse(np.int64(2)), Seat.parse(np.int8(3)), Team.parse(1)) == \
        (Suit.H, Seat.W, Team.EW)
    assert solve(DEAL, 3, np.int64(2), 1).value == solve(DEAL, "S", "S", "EW").value
    with pytest.raises(NotationError, match="unknown suit True"):
        Suit.parse(True)
    with pytest.raises(NotationError, match="unknown team 2"):
        Team.parse(2)


# -- a record as a player writes it --------------------------------------------------------------

def test_a_record_of_all_32_cards_needs_no_deal():
    data = json.loads((ROOT / "examples" / "game.json").read_text())
    full = GameRecord.from_dict(data)
    del data["deal"]
    assert GameRecord.from_dict(data) == full


def test_a_record_of_fewer_cards_says_it_needs_the_deal():
    with pytest.raises(RecordError, match="no 'deal' field: .* all 32 cards .* holds 2"):
        GameRecord.from_dict({"dealer": "E", "trump": "S", "playing": "EW", "played": "SK S9"})


def test_a_record_without_deal_refuses_a_card_played_twice():
    data = json.loads((ROOT / "examples" / "game.json").read_text())
    del data["deal"]
    cards = data["played"].split() if isinstance(data["played"], str) else data["played"]
    data["played"] = cards[:31] + [cards[0]]
    with pytest.raises(RecordError, match="already played as card 1"):
        GameRecord.from_dict(data)


# -- the Dutch notation ------------------------------------------------------------------------

@pytest.mark.parametrize("text, card", [("HH", "HK"), ("KB", "CJ"), ("R10", "DT"), ("SV", "SQ"),
                                        ("HA", "HA"), ("♥H", "HK")])
def test_dutch_cards_are_read(text, card):
    assert Card.parse(text, notation="nl") == Card.parse(card)


def test_dutch_cards_and_deals_are_written():
    assert Card.parse("CJ").to_str(notation="nl") == "KB"
    assert Card.parse("HK").to_str(symbols=True, notation="nl") == "♥H"
    assert DEAL.to_pbn(notation="nl") == PBN_NL
    assert Deal.from_pbn(PBN_NL, notation="nl") == DEAL


def test_a_dutch_record():
    record = GameRecord.from_dict({"deal": PBN_NL, "dealer": "E", "trump": "S", "playing": "EW",
                                   "played": "SH S9 SA SB", "notation": "nl"})
    assert record.played[0] == Card.parse("SK")


def test_the_command_reads_and_prints_the_dutch_notation(capsys):
    status, out, _ = run(capsys, "solve", PBN_NL, "--trump", "S", "--leader", "S", "--playing",
                         "EW", "--played", "HA H10", "--notation", "nl")
    assert status == 0
    assert "E  ♠B10     ♥B       ♦HV108   ♣10" in out
    assert "line: ♥V ♥B  " in out


def test_the_command_reads_a_dutch_suit(capsys):
    status, out, _ = run(capsys, "solve", PBN_NL, "--trump", "K", "--leader", "S", "--playing",
                         "EW", "--notation", "nl", "--json")
    assert status == 0
    assert json.loads(out)["value"] == solve(DEAL, "C", "S", "EW").value


# -- cards written the wrong way -------------------------------------------------------------------

def test_a_card_written_rank_first_says_suit_first():
    with pytest.raises(NotationError, match="cards are written suit first, e.g. H10"):
        Card.parse("10H")


def test_a_comma_between_cards_is_a_notation_error_naming_it(capsys):
    with pytest.raises(NotationError, match="separated by spaces, not ','") as raised:
        solve(DEAL, "S", "S", "EW", played="HA,HT")
    assert not isinstance(raised.value, IllegalPlayError)
    status, _, err = run(capsys, "solve", *POSITION, "--played", "HA,HT")
    assert status == 2 and "not ','" in err


def test_suit_symbols_in_a_hand_are_read_in_their_place():
    assert Deal.from_pbn("N:♠A7.♥KQ9.♦9.♣87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ") == DEAL


def test_a_suit_symbol_out_of_place_says_how_to_write_the_hand():
    with pytest.raises(DealError, match="a hand is spades.hearts.diamonds.clubs, ranks only"):
        Deal.from_pbn("N:♥KQ9.♠A7.♦9.♣87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ")


# -- seeds ---------------------------------------------------------------------------------------

def test_deal_seeds_run_from_0_to_2_64_minus_1():
    Deal.random(2 ** 64 - 1)
    for seed in (2 ** 64, 2 ** 70, -1):
        with pytest.raises(DealError, match="from 0 to 18446744073709551615"):
            Deal.random(seed)
