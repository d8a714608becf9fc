"""The public calls replay the cards played in the engine (Solver._moves_replayed_in_engine,
Solver._solved_in_engine, Solver.game): the values, lines, totals, Games and errors are those
of the Game's replay, under every rule option and whatever form the cards played come in."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SLOW, example_counts, positions, rules_strategy
from solver import Deal, Game, IllegalPlayError, Rules, Solver
from solver.engine.reference import minimax_moves
from solver.engine.search import engine_spec

DEAL = Deal.from_pbn("N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ")

@settings(max_examples=80, **SLOW)
@given(positions(tricks_left=st.integers(1, 4)), st.sampled_from(["points", "score", "make"]),
       st.booleans())
def test_solve_moves_equals_the_games_replay(game, objective, as_text):
    played = " ".join(map(str, game.played)) if as_text else list(game.played)
    solver = Solver(game.rules)
    fast = solver.solve_moves(game.deal, game.trump, game.leader, game.playing,
                              played=played, objective=objective)
    slow = Solver(game.rules).move_values(game, objective)
    assert fast == slow
    if len(game.tricks) >= 5:
        assert fast == minimax_moves(game, objective)


@pytest.mark.parametrize("examples", example_counts(60))
def test_solve_equals_the_games_replay_line_and_tallies(examples):
    """The value, the line, the nodes and each team's total at the end of the line, as the
    Game's path finds them (on a fresh Solver each: the nodes depend on the table)."""
    @settings(max_examples=examples, **SLOW)
    @given(positions(tricks_left=st.integers(1, 4)),
           st.sampled_from(["points", "score", "make"]), st.booleans())
    def check(game, objective, as_text):
        played = " ".join(map(str, game.played)) if as_text else list(game.played)
        fast = Solver(game.rules).solve(game.deal, game.trump, game.leader, game.playing,
                                        played=played, objective=objective)
        replayed = Game(game.deal, game.trump, game.leader, game.playing, game.rules)
        replayed.replay(game.played)
        assert fast == Solver(game.rules)._solved_on_game(replayed, objective)
    check()


@pytest.mark.parametrize("rules", [Rules(), Rules(roem="hand"), Rules(pit="any", stuk="hand"),
                                   Rules(double_suits=["S"], hand_roem_needs_trick=True)],
                         ids=["default", "roem in hand", "pit any, stuk in hand",
                              "double suits, hand roem needs a trick"])
def test_solve_of_a_finished_round_gives_the_games_tallies(rules):
    """All 32 cards played: no line, and the totals are the Game's own tallies, pits and
    hand roem included (the best line of each deal, so some rounds end in a pit); the
    objectives searched apart give what the Game's path gives."""
    solver = Solver(rules)
    # Each seat holds one whole suit: with spades trump N takes every trick, with hearts E.
    suits = Deal.from_pbn("N:AKQJT987... .AKQJT987.. ..AKQJT987. ...AKQJT987")
    for deal, trump in [(Deal.random(seed), "S") for seed in range(12)] + [(suits, "S"),
                                                                            (suits, "H")]:
        line = solver.solve(deal, trump, "N", "NS", rules).line
        result = solver.solve(deal, trump, "N", "NS", rules, line)
        game = Game(deal, trump, "N", "NS", rules)
        game.replay(line)
        assert result.line == [] and result.played == line
        assert dict(result.totals) == {team: game.tally(team).total for team in game.tallies()}
        for objective in ("score", "make"):
            assert solver.solve(deal, trump, "N", "NS", rules, line, objective) == \
                Solver(rules)._solved_on_game(game, objective)


@settings(max_examples=40, **SLOW)
@given(positions(tricks_left=st.integers(1, 7)), st.integers(0, 31))
def test_an_illegal_card_is_refused_as_the_game_refuses_it(game, index):
    """A card not held or breaking a duty, at the end of the cards played: the same error."""
    card = game.deal.hands[index // 8][index % 8]
    played = list(game.played) + [card]
    check = Game(game.deal, game.trump, game.leader, game.playing, game.rules)
    try:
        check.replay(played)
    except IllegalPlayError as err:
        expected = str(err)
    else:
        return      # the card was legal there
    with pytest.raises(IllegalPlayError) as raised:
        Solver(game.rules).solve_moves(game.deal, game.trump, game.leader, game.playing,
                                       played=played)
    assert str(raised.value) == expected


@settings(max_examples=60, **SLOW)
@given(positions(tricks_left=st.integers(0, 8)), st.integers(0, 31), st.booleans())
def test_solver_game_is_the_games_replay(game, index, as_text):
    """Solver.game checks the cards played in the engine and places them on the Game without
    its own checks: the same Game, tallies and all, and for a card not held or breaking a
    duty (the last one, here) the same error."""
    card = game.deal.hands[index // 8][index % 8]
    for cards in (list(game.played), list(game.played) + [card]):
        replayed = Game(game.deal, game.trump, game.leader, game.playing, game.rules)
        given = " ".join(map(str, cards)) if as_text else cards
        try:
            replayed.replay(cards)
        except IllegalPlayError as err:
            with pytest.raises(IllegalPlayError) as raised:
                Solver().game(game.deal, game.trump, game.leader, game.playing, game.rules,
                              given)
            assert str(raised.value) == str(err)
            continue
        built = Solver().game(game.deal, game.trump, game.leader, game.playing, game.rules,
                              given)
        assert (built.tricks, built.hands, built.current_trick, built.played) == \
            (replayed.tricks, replayed.hands, replayed.current_trick, replayed.played)
        assert built.tallies() == replayed.tallies() and built.to_move == replayed.to_move


def test_one_solver_across_rules_trumps_and_deals_keeps_each_calls_values():
    """The engine keeps the last rules it was given ready (Engine._known_specs): going back
    to earlier ones must give the values a fresh Solver gives."""
    solver = Solver()
    calls = []
    for i in range(24):
        deal = Deal.random(i)
        rules = [Rules(), Rules.rotterdam(), Rules(roem="hand"), Rules(stuk="hand")][i % 4]
        trump, leader, playing = "SHDC"[i % 4], "NESW"[i // 4 % 4], ["NS", "EW"][i % 2]
        game = Game(deal, trump, leader, playing, rules)
        for _ in range(20):
            game.play(game.legal_cards()[0])
        calls.append((deal, trump, leader, playing, rules, list(game.played)))
    for deal, trump, leader, playing, rules, played in calls + calls[::-1]:
        assert solver.solve_moves(deal, trump, leader, playing, rules, played) == \
            Solver(rules).solve_moves(deal, trump, leader, playing, rules, played)


@pytest.mark.parametrize("rules", [Rules(), Rules(roem="hand"), Rules(stuk="hand")],
                         ids=["spec of the rules", "roem in hand", "stuk in hand"])
def test_one_call_over_many_deals_keeps_each_deals_values(rules):
    """A loop over deals with the same contract and rules reuses what the call came to, but
    rules that read the deal (who holds roem or stuk) must not lend one deal's spec to the
    next."""
    solver = Solver()
    games = []
    for i in range(12):
        game = Game(Deal.random(100 + i), "H", "N", "NS", rules)
        for _ in range(12 + i % 5):
            game.play(game.legal_cards()[-1])
        games.append(game)
    for game in games + games[::-1]:        # and back: each deal's own kept spec, or a new one
        for objective in ("points", "score"):
            assert solver.solve_moves(game.deal, "H", "N", "NS", rules, game.played,
                                      objective) == Solver(rules).move_values(game, objective)


@pytest.mark.parametrize("rules", [Rules(), Rules(roem="hand"), Rules(stuk="hand")],
                         ids=["spec of the rules", "roem in hand", "stuk in hand"])
def test_one_solver_over_games_of_many_deals_keeps_each_deals_values(rules):
    """The calls on a Game keep its round's spec as the calls with a deal do: never one
    deal's for another where the rules read the deal."""
    solver = Solver()
    for i in range(12):
        game = Game(Deal.random(200 + i), "D", "E", "EW", rules)
        for _ in range(8 + i % 9):
            game.play(game.legal_cards()[0])
        assert solver.value(game, "score") == Solver(rules).value(game, "score")
        assert solver.move_values(game) == Solver(rules).move_values(game)


def test_the_engines_replay_refuses_a_bad_deal_by_name():
    engine = Solver().engine
    engine.configure(engine_spec(Game(Deal.random(1), "H", "N", "NS")))
    with pytest.raises(ValueError, match="hand 1 is not 8 cards"):
        engine.moves_after((0xFF, 0xFF, 0xFF0000, 0xFF000000), 0, b"", 0)
    assert engine.moves_after((0xFF, 0xFF00, 0xFF0000, 0xFF000000), 0, bytes([8]), 0) == (0, [])


@settings(max_examples=30, **SLOW)
@given(rules_strategy, st.integers(0, 2**32 - 1), st.integers(0, 28))
def test_positions_after_random_play_agree_with_engine_position(rules, seed, cards):
    """The score metric reads the points taken: a wrong replay shows in its values."""
    game = Game(Deal.random(seed), "S", "W", "EW", rules)
    for i in range(cards):
        legal = game.legal_cards()
        game.play(legal[(seed >> (i % 16)) % len(legal)])
    fast = Solver(rules).solve_moves(game.deal, "S", "W", "EW", played=game.played,
                                     objective="score")
    solver = Solver(rules)
    assert fast == solver.move_values(game, "score")


@pytest.mark.parametrize("as_text", [lambda cards: (str(c) for c in cards),
                                     lambda cards: iter([cards[0]] + [str(c) for c in cards[1:]])])
def test_solve_moves_reads_cards_played_given_as_an_iterator(as_text):
    # The engine's path read the iterator, stopped at the first text card and read the rest
    # again from where it was: the values of another position, without a word.
    game = Game(DEAL, "H", "W", "NS")
    for _ in range(9):
        game.play(game.legal_cards()[0])
    cards = list(game.played)
    solver = Solver()
    assert solver.solve_moves(DEAL, "H", "W", "NS", played=as_text(cards)) == \
        solver.move_values(game)
