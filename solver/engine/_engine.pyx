# The Cython core: the alpha-beta search and its Python face. One unit per search concept,
# included here so that the compiler still inlines across them: _trick.pxi (the rules of a
# trick, values), _bounds.pxi, _table.pxi (transposition table), _ordering.pxi (equivalent
# cards, move ordering, lookahead). Declarations are in _engine.pxd; each compiler's builtins
# in _portable.h. The search runs without the GIL and reports no errors:
# `Engine.configure` checks every number it is given before any of it is used.
from cpython.exc cimport PyErr_Occurred
from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t, uintptr_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcmp, memset

from ..model.cards import CARD_POINTS_TOTAL   # a round's card points with the last trick
# MAX_AMOUNT: the largest bonus or roem option a rule may set; MAKE_THRESHOLD: nat="82"'s line
from ..model.rules import MAKE_THRESHOLD, MAX_AMOUNT

cdef enum:
    INF = 32000
    MAX_MOVES = 8
    PLIES = 33
    NO_CUTOFF = -99999
    NO_OWNER = 255
    NO_TRUMP = 4                  # Params.trump of a round without trump (ledig)
    NO_BIDDER = 4                 # Params.bidder of a trump round: no seat is
    SIGNAL_CHECK_MASK = 0x3FFFF   # look for Ctrl-C every 262,144 nodes (about 15 ms)
    KNOWN_SPECS = 8               # rules an Engine keeps ready: 4 trumps x 2 playing teams
    ROOT_WINDOW = 40              # child_values' first windows reach this far below the best
                                  # so far (16 measured 1.03x the nodes, 24 1.01x, 64 and no
                                  # limit 1.00-1.01x)

cdef extern from *:
    # KLAVERJAS_ENGINE_COUNTERS=1 at build time (setup.py) compiles in the counters of what
    # each heuristic does (Engine.counters); otherwise COUNTING is a 0 the C compiler sees,
    # and every count() vanishes from the search.
    """
    #ifndef KLAVERJAS_ENGINE_COUNTERS
    #define KLAVERJAS_ENGINE_COUNTERS 0
    #endif
    """
    const bint COUNTING "KLAVERJAS_ENGINE_COUNTERS"

cdef extern from *:
    # KLAVERJAS_ENGINE_ORACLE=1 at build time compiles in the oracle's move order
    # (Engine.attach_oracle, for benchmarks/bench_limit.py); otherwise ORACLE is a 0 the C
    # compiler sees, and the search never looks for an oracle.
    """
    #ifndef KLAVERJAS_ENGINE_ORACLE
    #define KLAVERJAS_ENGINE_ORACLE 0
    #endif
    """
    const bint ORACLE "KLAVERJAS_ENGINE_ORACLE"

cdef enum Counter:
    TABLE_PROBES            # positions looked up at a trick boundary
    TABLE_HITS              # ... and found
    TABLE_CUTOFFS           # ... whose stored bounds settled them
    TABLE_STORES
    BOUNDS_CUTOFFS          # positions settled by the bounds on what is to come
    ETC_CUTOFFS             # positions settled by the enhanced transposition cutoff
    TABLE_MOVE_CUTOFFS      # beta cutoffs by the table's move
    KILLER_CUTOFFS          # ... by the killer
    OTHER_CUTOFFS           # ... by another move
    TWIN_CUTOFFS            # moves settled by a near-twin's value (settled_by_twin)
    COUNTERS

COUNTER_NAMES = ("table_probes", "table_hits", "table_cutoffs", "table_stores",
                 "bounds_cutoffs", "etc_cutoffs", "table_move_cutoffs", "killer_cutoffs",
                 "other_cutoffs", "twin_cutoffs")
# The names in the enum's order; one name per counter, checked at import.
if len(COUNTER_NAMES) != COUNTERS:
    raise RuntimeError(f"the engine has {COUNTERS} counters but {len(COUNTER_NAMES)} names")

cdef extern from "Python.h":
    # Declared without an error value on purpose: a pending KeyboardInterrupt stays set and
    # is raised by Engine.search once the search has unwound.
    int PyErr_CheckSignals()

# Everything a search needs: the rules, the table, and the move-ordering memory.
cdef struct Search:
    Params p
    int metric
    Entry* table
    uint64_t bucket_mask       # number of buckets - 1
    uint16_t epoch             # 1..MAX_EPOCH; entries of other epochs are dead
    uint8_t owner[32]          # the seat each card was dealt to, NO_OWNER if not known yet:
                               # the table holds one deal at a time (see make_key)
    uint64_t sweep             # the next entry to scrub (see Engine._new_epoch)
    uint64_t nodes
    bint interrupted           # a signal handler raised: unwind without storing anything
    int history[4][32]
    int killer[PLIES][4]    # by ply and suit led (killer_of)
    int root_ply               # the ply (cards played in the round) of the search's root
    uint64_t counts[COUNTERS]  # what each heuristic did, if COUNTING
    Search* oracle             # if ORACLE: the search that knows every value (order_by_oracle)
    int oracle_plies           # ... which orders the nodes this many cards below the root


cdef inline void count(Search* S, Counter counter) noexcept nogil:
    if COUNTING:
        S.counts[<int>counter] += 1


include "_trick.pxi"
include "_bounds.pxi"
include "_table.pxi"
include "_ordering.pxi"


# -- the search ----------------------------------------------------------------------------------

cdef struct Probe:
    # A child's table key and bucket, found by its parent at the last card of a trick.
    Key key
    Entry* bucket


cdef inline int legal_index(uint32_t legal_set, int card) noexcept nogil:
    """Where `card` is among the cards of `legal_set` (lowest first)."""
    return popcount(legal_set & ((<uint32_t>1 << card) - 1))


cdef inline void probe_children(Search* S, const State* s, uint32_t legal_set,
                                Probe* probes) noexcept nogil:
    """At the last card of a trick whose children are table positions: each legal card's
    child key and bucket (probes[legal_index]), and a request for the bucket, so that its
    load from memory overlaps the work before the child probes it."""
    cdef const Params* p = &S.p
    cdef State child
    cdef uint32_t left = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    cdef uint32_t odd_seats = s.hands[1] | s.hands[3], high_seats = s.hands[2] | s.hands[3]
    cdef uint32_t off
    cdef int i = 0, card, winner, side
    # Whether each side has won a trick before this one; in scalars, as an array written at
    # [side] and read back stalled on the store (about 3% of the search's time).
    cdef bint won_before0 = s.won[0] > 0, won_before1 = s.won[1] > 0
    while legal_set:
        card = lowest(legal_set)
        if S.metric == METRIC_SCORE:
            child = s[0]        # the key holds what was taken: play the card
            play_onto(p, s, &child, card)
            make_key(S, &child, &probes[i].key)
        else:
            # The key without playing the card: who wins the trick, and the cards left.
            winner = (s.trick_leader
                      + (3 if beats(p, card, s.trick[s.win_pos]) else s.win_pos)) & 3
            side = p.side[winner]
            off = ~((<uint32_t>1) << card)
            key_of(S, left & off, odd_seats & off, high_seats & off, winner,
                   won_before0 or side == 0, won_before1 or side == 1, s, &probes[i].key)
        probes[i].bucket = bucket_of(S, &probes[i].key)
        kj_prefetch(probes[i].bucket)
        legal_set &= legal_set - 1
        i += 1


cdef int enhanced_cutoff(Search* S, const State* s, int* moves, int n, uint32_t legal_set,
                         const Probe* probes, bint maximising, int alpha,
                         int beta) noexcept nogil:
    """Enhanced transposition cutoff: before searching the last card of a trick, look each
    resulting position up in the table (probes, from probe_children); one whose stored bound
    already refutes the window ends the search here. Returns the bound, or NO_CUTOFF."""
    cdef State child
    cdef Entry* entry
    cdef const Probe* probe
    cdef bint found
    cdef int i, gain, base = progress(&S.p, S.metric, s)
    for i in range(n):
        probe = &probes[legal_index(legal_set, moves[i])]
        entry = probe_bucket(S, probe.bucket, &probe.key, &found)
        if not found:
            continue
        child = s[0]
        play_onto(&S.p, s, &child, moves[i])
        gain = progress(&S.p, S.metric, &child) - base
        if maximising and gain + entry.lower >= beta:
            return gain + entry.lower
        if not maximising and gain + entry.upper <= alpha:
            return gain + entry.upper
    return NO_CUTOFF


cdef void check_signals(Search* S) noexcept nogil:
    with gil:
        if PyErr_CheckSignals() != 0:
            S.interrupted = True


cdef inline int last_trick(const Params* p, int metric, const State* s) noexcept nogil:
    """The metric's final value of a position in the last trick, which plays itself: everyone
    holds one card (or of a finished round)."""
    cdef State last = s[0]
    if last.ntrick == 0 and last.tricks_left == 1:
        take_last_trick(p, &last)
    while last.tricks_left:
        play(p, &last, lowest(last.hands[(last.trick_leader + last.ntrick) & 3]))
    return final_value(p, metric, &last)


cdef int settled_by_twin(const Params* p, const State* s, int metric, int card,
                         const int8_t* cards, const int16_t* values, int n, bint maximising,
                         int alpha, int beta) noexcept nogil:
    """A bound of `card`'s value that already keeps it out of the window alpha..beta, from a
    near-twin among the n cards searched (values: exact, or a bound on the side of the
    window, as the search left them); else NO_CUTOFF."""
    cdef int i, bound
    cdef uint32_t live = live_cards(s)
    for i in range(n):
        bound = swap_bound(p, live, metric, cards[i], card)
        if bound < 0:
            continue
        if maximising and values[i] + bound <= alpha:
            return values[i] + bound
        if not maximising and values[i] - bound >= beta:
            return values[i] - bound
    return NO_CUTOFF


# Called through a pointer, so that the compiler keeps it out of alpha_beta, where it is
# rarely called (inlined: 0.7% more instructions a node under the default rules).
ctypedef int (*SettledByTwin)(const Params*, const State*, int, int, const int8_t*,
                              const int16_t*, int, bint, int, int) noexcept nogil
cdef SettledByTwin settle_by_twin = settled_by_twin


cdef int alpha_beta(Search* S, const State* s, int alpha, int beta,
                    uint32_t legal_set, const Probe* known) noexcept nogil:
    """Fail-soft alpha-beta on the value still to come (final metric - progress so far).
    `legal_set`: the legal cards of the player to move, if the caller knows them, else 0.
    `known`: at a trick boundary, the position's key and bucket if the caller found them
    (probe_children), else NULL.
    After an interruption it returns 0 at once; such values are never stored or returned."""
    cdef const Params* p = &S.p
    S.nodes += 1
    if (S.nodes & SIGNAL_CHECK_MASK) == 0:
        check_signals(S)
    if S.interrupted:
        return 0
    if s.tricks_left <= 1:
        return last_trick(p, S.metric, s) - progress(p, S.metric, s)
    cdef bint at_boundary = s.ntrick == 0 and s.tricks_left >= 2
    cdef int low, high
    cdef bint bounded = False
    cdef Entry* entry = NULL
    cdef Entry* bucket = NULL
    cdef bint found = False
    cdef Key key
    if at_boundary:
        # Ask for the table's bucket first: its load (most often a cache miss) overlaps the
        # bounds below.
        if known != NULL:
            key = known.key
            bucket = known.bucket
        else:
            make_key(S, s, &key)
            bucket = bucket_of(S, &key)
            kj_prefetch(bucket)
        # What is left cannot move the value past the window: no search needed.
        if S.metric == METRIC_LEDIG:
            ledig_to_come(p, s, &low, &high)
            bounded = True
        elif S.metric != METRIC_SCORE:
            bounds_to_come(p, S.metric, s, &low, &high)
            if alpha < high and low < beta:     # not settled yet: try the top trumps
                tighten_by_trumps(p, S.metric, s, &low, &high)
            bounded = True
        else:
            bounded = score_bounds(p, s, &low, &high)
        if bounded and high <= alpha:
            count(S, BOUNDS_CUTOFFS)
            return high
        if bounded and low >= beta:
            count(S, BOUNDS_CUTOFFS)
            return low
    cdef int tt_move = -1
    if at_boundary:
        entry = probe_bucket(S, bucket, &key, &found)
        count(S, TABLE_PROBES)
        if found:
            count(S, TABLE_HITS)
            if entry.lower >= beta:
                count(S, TABLE_CUTOFFS)
                return entry.lower
            if entry.upper <= alpha:
                count(S, TABLE_CUTOFFS)
                return entry.upper
            if entry.lower == entry.upper:
                count(S, TABLE_CUTOFFS)
                return entry.lower
            if entry.lower > alpha:
                alpha = entry.lower
            if entry.upper < beta:
                beta = entry.upper
            # The entry may have been written from a position with other 0-point cards.
            tt_move = best_move_of(entry)
            if not (s.hands[s.trick_leader] >> tt_move) & 1:
                tt_move = -1
    cdef int alpha_start = alpha, beta_start = beta
    cdef int depth = ply_of(s)
    cdef bint maximising = p.side[(s.trick_leader + s.ntrick) & 3] == 0
    cdef int lookahead = (lookahead_depth(depth - S.root_ply, depth, p.bidder != NO_BIDDER)
                          if tt_move < 0 else 0)
    # The enhanced cutoff where the children are big table positions: with four tricks left
    # it saved fewer nodes than its probes cost (measured 0.95x time on points and moves).
    cdef bint etc = s.ntrick == 3 and s.tricks_left >= 5
    if not legal_set:
        legal_set = legal(p, s)
    # At the last card of a trick whose children are table positions, their buckets are asked
    # for now, before the move order, rather than by each child just before its probe (0.93-
    # 0.96x the CPU time of moves and points; the same nodes).
    cdef bint ahead = s.ntrick == 3 and s.tricks_left >= 3
    cdef Probe probes[MAX_MOVES]
    if ahead:
        probe_children(S, s, legal_set, probes)
    cdef int moves[MAX_MOVES]
    cdef MovePicker picker
    start_picking(&picker, moves, S, s, legal_set, tt_move, not lookahead and not etc,
                  lookahead, maximising)
    cdef int cutoff
    if etc:
        cutoff = enhanced_cutoff(S, s, moves, picker.n, legal_set, probes, maximising, alpha,
                                 beta)
        if cutoff != NO_CUTOFF:
            count(S, ETC_CUTOFFS)
            return cutoff
    cdef int best = -INF if maximising else INF
    cdef int best_move = moves[0]
    cdef int searched = 0, move, gain, value
    cdef int base = progress(p, S.metric, s)
    cdef uint32_t next_legal
    cdef State child
    cdef const Probe* child_probe = NULL
    # Whether a card may be settled by a near-twin's value (swap_bound), as bit 32, and the
    # cards searched so far below it (their values are kept): not 0 only where two legal
    # cards share a suit, under rules where near-twins apply.
    cdef uint64_t twins = ((<uint64_t>1) << 32 if (p.near_twin_metrics >> S.metric) & 1
                           and two_in_a_suit(legal_set) else 0)
    cdef int8_t searched_cards[MAX_MOVES]
    cdef int16_t searched_values[MAX_MOVES]
    cdef int settled
    while next_move(&picker, S, s, &move):
        if kj_unlikely(twins != 0) and twins & SUIT_MASK[move >> 3]:
            settled = settle_by_twin(p, s, S.metric, move, searched_cards, searched_values,
                                     searched, maximising, alpha, beta)
            if settled != NO_CUTOFF:
                count(S, TWIN_CUTOFFS)
                if (settled > best) if maximising else (settled < best):
                    best = settled
                continue
        child = s[0]
        play_onto(p, s, &child, move)
        # A card that is the only legal one, later in this trick, is played here rather
        # than searched as a node of its own; so is the last trick.
        next_legal = 0
        if child.ntrick != 0:
            next_legal = legal_next(p, s, &child)
            while not (next_legal & (next_legal - 1)):
                play(p, &child, lowest(next_legal))
                next_legal = 0
                if child.ntrick == 0:
                    break
                next_legal = legal(p, &child)
        if child.tricks_left == 1:
            value = last_trick(p, S.metric, &child) - base
        else:
            # Only the last card of a trick changes what has been taken.
            gain = progress(p, S.metric, &child) - base if child.ntrick == 0 else 0
            if ahead:
                child_probe = &probes[legal_index(legal_set, move)]
            if searched == 0 or beta - alpha <= 1:
                value = gain + alpha_beta(S, &child, alpha - gain, beta - gain, next_legal,
                                          child_probe)
            elif maximising:
                # Principal variation search: prove the later moves no better with a null
                # window, and search again only when one is.
                value = gain + alpha_beta(S, &child, alpha - gain, alpha + 1 - gain, next_legal,
                                          child_probe)
                if alpha < value < beta:
                    value = gain + alpha_beta(S, &child, value - 1 - gain, beta - gain,
                                              next_legal, child_probe)
            else:
                value = gain + alpha_beta(S, &child, beta - 1 - gain, beta - gain, next_legal,
                                          child_probe)
                if alpha < value < beta:
                    value = gain + alpha_beta(S, &child, alpha - gain, value + 1 - gain,
                                              next_legal, child_probe)
        if S.interrupted:
            return 0
        if kj_unlikely(twins != 0):
            twins |= (<uint64_t>1) << move
            searched_cards[searched] = move
            searched_values[searched] = value
        if maximising:
            if value > best:
                best = value
                best_move = move
                if value > alpha:
                    alpha = value
        else:
            if value < best:
                best = value
                best_move = move
                if value < beta:
                    beta = value
        if alpha >= beta:
            if COUNTING:
                count(S, TABLE_MOVE_CUTOFFS if best_move == tt_move else
                      KILLER_CUTOFFS if best_move == killer_of(S, s) else OTHER_CUTOFFS)
            S.killer[depth][killer_suit(s)] = best_move
            S.history[s.ntrick][best_move] = min(S.history[s.ntrick][best_move]
                                                 + s.tricks_left * s.tricks_left, HISTORY_MOST)
            break
        searched += 1
    if at_boundary:
        store_entry(S, bucket, &key, best, alpha_start, beta_start, best_move)
    return best


cdef inline int search_from(Search* S, const State* s, int alpha, int beta) noexcept nogil:
    """The metric's value of `s` (fail-soft, absolute)."""
    cdef int base = progress(&S.p, S.metric, s)
    return base + alpha_beta(S, s, alpha - base, beta - base, 0, NULL)


cdef inline int search_child(Search* S, const State* s, int card, int alpha, int beta,
                             State* child) noexcept nogil:
    """The metric's value (fail-soft, absolute) after `card` is played from `s`."""
    child[0] = s[0]
    play(&S.p, child, card)
    return search_from(S, child, alpha, beta)


cdef int child_values(Search* S, const State* s, int window, int* cards,
                      int* values) noexcept nogil:
    """Every legal card's exact value, in card order. The cards are searched in
    preferred_order, the first in a full window, each later one first in a window from
    `window` worse than the best value so far (for the player to move) to just better than
    it, and again beyond whichever side its value falls outside: most cards are no better
    than the best, and not by much. Interchangeable cards (drop_equivalent) are searched
    once. Against a window of +-8 around the previous card's value, in card order, it
    measured 0.96x the nodes of moves at trick 1 (200 deals), the same mid-round."""
    cdef int kept_for[32]
    cdef int value_of[32]
    cdef int order[MAX_MOVES]
    cdef uint32_t moves = legal(&S.p, s)
    cdef State child
    cdef int n = 0, i, card, value, low, high, best = 0
    cdef bint maximising = S.p.side[(s.trick_leader + s.ntrick) & 3] == 0
    window = max(window, 0)
    S.root_ply = ply_of(s)
    equivalent_cards(&S.p, s, moves, kept_for)     # kept_for: where a dropped card's value is
    cdef int count = preferred_order(S, s, order)   # the kept cards, best-first
    for i in range(count):
        card = order[i]
        child = s[0]
        play(&S.p, &child, card)
        if i == 0:
            value = search_from(S, &child, -INF, INF)
        elif maximising:
            low = best - window
            value = search_from(S, &child, low, best + 1)
            if value > best:            # fail-soft: the value is at least this; find it
                value = search_from(S, &child, value - 1, INF)
            elif value <= low:          # ... at most this
                value = search_from(S, &child, -INF, value + 1)
        else:
            high = best + window
            value = search_from(S, &child, best - 1, high)
            if value < best:
                value = search_from(S, &child, -INF, value + 1)
            elif value >= high:
                value = search_from(S, &child, value - 1, INF)
        if S.interrupted:
            return 0
        value_of[card] = value
        if i == 0 or (value > best if maximising else value < best):
            best = value
    while moves:
        card = lowest(moves)
        moves &= moves - 1
        cards[n] = card
        values[n] = value_of[kept_for[card]]
        n += 1
    return n


cdef int root_value(Search* S, const State* s, int* best_card) noexcept nogil:
    """The exact value of `s`, and in best_card[0] the first card in preferred_order whose
    value it is: a principal variation search at the root, where a card replaces the best
    so far only when it is better."""
    cdef int moves[MAX_MOVES]
    cdef int n = preferred_order(S, s, moves)
    cdef int sign = 1 if S.p.side[(s.trick_leader + s.ntrick) & 3] == 0 else -1
    cdef int i, value, best = -INF
    cdef State child
    for i in range(n):
        # Values as the side to move sees them (times sign): it looks for the highest.
        if i == 0:
            value = sign * search_child(S, s, moves[i], -INF, INF, &child)
        elif sign > 0:
            value = search_child(S, s, moves[i], best, best + 1, &child)
            if value > best:
                value = search_from(S, &child, best, INF)
        else:
            value = -search_child(S, s, moves[i], -best - 1, -best, &child)
            if value > best:
                value = -search_from(S, &child, -INF, -best)
        if S.interrupted:
            return 0
        if value > best:
            best = value
            best_card[0] = moves[i]
    return sign * best


cdef int keep_line(Search* S, const State* start, int low, int high, bint preferred,
                   int max_cards, int* cards) noexcept nogil:
    """The cards of Engine.line: at every turn the first card after which the value still
    lies in low..high, in card order or (`preferred`) in preferred_order. Its length, or 0
    when no card keeps the value. The caller sets S.root_ply: the lookahead counts from the
    line's start, not from each turn, as the turns' tests are small searches in a table the
    earlier ones filled."""
    cdef State s = start[0]
    cdef State child
    cdef uint32_t moves
    cdef int candidates[MAX_MOVES]
    cdef int n = 0, count, i, value
    cdef bint maximising, kept
    while s.tricks_left > 0 and n < max_cards:
        if preferred:
            count = preferred_order(S, &s, candidates)
        else:
            moves = legal(&S.p, &s)
            count = 0
            while moves:
                candidates[count] = lowest(moves)
                moves &= moves - 1
                count += 1
        maximising = S.p.side[(s.trick_leader + s.ntrick) & 3] == 0
        kept = False
        for i in range(count):
            child = s
            play(&S.p, &child, candidates[i])
            # No card takes the value past what the player to move can force, so one side
            # of low..high holds for every card: one null window tests the other side.
            if i == count - 1:
                kept = True     # the last candidate: some card keeps the value, none before
            elif maximising:
                kept = low == -INF or search_from(S, &child, low - 1, low) >= low
            else:
                kept = high == INF or search_from(S, &child, high, high + 1) <= high
            if S.interrupted:
                return 0
            if kept:
                cards[n] = candidates[i]
                n += 1
                s = child
                break
        if not kept:
            return 0
    return n


include "_batch.pxi"


# -- the Python face -----------------------------------------------------------------------------

cdef uint32_t _mask(cards) except? 0:
    cdef uint32_t m = 0
    for c in cards:
        m |= (<uint32_t>1) << <int>c
    return m


def _cards(uint32_t mask):
    return [c for c in range(32) if mask >> c & 1]


cdef class Engine:
    """The compiled search, configured for one round's rules, owning its transposition table.

    `configure(spec)` takes plain numbers prepared by search.py (card points and strengths
    come from cards.py, so the rules live in one place); positions are
    `(hands, trick, trick_leader, pts, roem, won, tricks_left)` with cards as indices 0..31 and
    the team pairs ordered (playing team, defenders).

    One thread at a time: a second call while a search runs raises RuntimeError (search.py's
    `Solver` holds a lock so that it never does).
    """
    cdef Search S
    cdef void* _memory         # the table's allocation (S.table is aligned inside it)
    cdef object _spec
    cdef bint _busy
    # The last KNOWN_SPECS specs configured, with their Params: building Params costs about
    # 30 us, more than the search of a late position; going back to one costs a copy.
    cdef Params* _known_params
    cdef list _known_specs
    cdef int _known_next
    cdef Engine _oracle        # attach_oracle's engine (KLAVERJAS_ENGINE_ORACLE builds only)

    def __cinit__(self, int table_mb):
        cdef uint64_t buckets = 1
        while buckets * 2 * BUCKET * sizeof(Entry) <= (<uint64_t>max(table_mb, 1)) << 20:
            buckets *= 2
        # 64 bytes more, so that buckets can start on cache lines.
        self._memory = calloc(buckets * BUCKET * sizeof(Entry) + 64, 1)
        if self._memory == NULL:
            raise MemoryError(f"cannot allocate a {table_mb} MB transposition table")
        self.S.table = <Entry*>((<uintptr_t>self._memory + 63) & ~(<uintptr_t>63))
        self.S.bucket_mask = buckets - 1
        self.S.epoch = 1
        self.S.sweep = 0
        memset(self.S.owner, NO_OWNER, sizeof(self.S.owner))
        self._spec = None
        self._busy = False
        self._known_params = <Params*>calloc(KNOWN_SPECS, sizeof(Params))
        if self._known_params == NULL:
            raise MemoryError("cannot allocate the engine's known rules")
        self._known_specs = []
        self._known_next = 0
        self._oracle = None
        self.S.oracle = NULL

    def __dealloc__(self):
        free(self._memory)
        free(self._known_params)

    @property
    def nodes(self):
        """Nodes searched by this engine so far (take differences to count one search)."""
        return self.S.nodes

    def counters(self):
        """{name: count} of what each heuristic did in this engine's searches so far (take
        differences to count one search): table probes, hits, cutoffs and stores, and the
        cutoffs by the bounds, by the enhanced transposition cutoff, and by the table's
        move, the killer or another move. Only in a build with KLAVERJAS_ENGINE_COUNTERS=1."""
        if not COUNTING:
            raise RuntimeError("this engine was built without counters: rebuild it with "
                               "`KLAVERJAS_ENGINE_COUNTERS=1 python -m pip install -e .`")
        return {name: self.S.counts[i] for i, name in enumerate(COUNTER_NAMES)}

    def attach_oracle(self, Engine oracle, int plies=PLIES):
        """Order every node's moves by their exact values, which `oracle` (another Engine,
        with a table of its own, given the same rules and deal before each search) computes:
        a perfect move order, whose nodes measure how far ours is from it (its own searches
        count in oracle.nodes). With `plies`, only the nodes fewer than that many cards below
        the root; our own order below. None detaches it. Only in a build with
        KLAVERJAS_ENGINE_ORACLE=1."""
        if not ORACLE:
            raise RuntimeError("this engine was built without the oracle: rebuild it with "
                               "`KLAVERJAS_ENGINE_ORACLE=1 python setup.py build_ext --inplace`")
        self._require_idle()
        if oracle is self:
            raise ValueError("an engine cannot be its own oracle")
        self._oracle = oracle
        self.S.oracle = &oracle.S if oracle is not None else NULL
        self.S.oracle_plies = plies
        if oracle is not None:
            oracle.S.oracle = NULL
            oracle._new_epoch()

    cdef void _sync_oracle(self, const State* s):
        """Give the oracle this search's rules, metric and deal (a new epoch when they
        change), before a search from `s`."""
        if not ORACLE or self.S.oracle == NULL:
            return
        cdef Search* O = self.S.oracle
        if memcmp(&O.p, &self.S.p, sizeof(Params)) != 0:
            O.p = self.S.p
            forget_deal(O)
        O.metric = self.S.metric
        adopt_deal(O, s)

    @property
    def epoch(self):
        """The table epoch of the current rules and deal, from 1 (up to 65535)."""
        return self.S.epoch

    @property
    def searching(self):
        """Whether a search is running (in some thread) right now."""
        return self._busy

    def configure(self, dict spec):
        """Set the round's parameters; a change starts a new table epoch (old entries die).

        Every number is checked first: a bad spec raises ValueError and leaves the engine
        exactly as it was."""
        self._require_idle()
        if spec == self._spec:
            return
        cdef int known
        for known in range(len(self._known_specs)):
            if spec == self._known_specs[known]:
                self.S.p = self._known_params[known]
                self._spec = self._known_specs[known]
                self._new_epoch()
                return
        cdef Params p
        cdef int c, d
        memset(&p, 0, sizeof(Params))
        p.trump = _number(spec, "trump", 0, NO_TRUMP)
        p.bidder = _number(spec, "bidder", -1, 3)
        if p.bidder < 0:
            p.bidder = NO_BIDDER
        if p.trump == NO_TRUMP and p.bidder == NO_BIDDER:
            raise ValueError(f"engine spec trump={NO_TRUMP} (no trump) is for a ledig round: "
                             f"give its bidder")
        p.amsterdam = _number(spec, "amsterdam", 0, 1)
        p.undertrump = _number(spec, "undertrump", 0, 2)
        p.roem_table = _number(spec, "roem_table", 0, 1)
        p.stuk_trick = _number(spec, "stuk_trick", 0, 1)
        p.stuk_holder = _number(spec, "stuk_holder", -1, 3)
        p.trump_qk = (<uint32_t>0x60) << (8 * p.trump) if p.trump != NO_TRUMP else 0
        p.stuk_pair = p.trump_qk if p.stuk_holder >= 0 else 0
        p.stuk_holder = max(p.stuk_holder, 0)
        for c in range(8):
            p.four_kind[c] = _number(spec, "four_kind", 0, MAX_AMOUNT, c, 8)
        for c in range(32):
            p.points[c] = _number(spec, "points", 0, 40, c, 32)
            p.strength[c] = _number(spec, "strength", 0, MOST_STRENGTH, c, 32)
        for c in range(32):
            p.above[c] = 0
            for d in range(32):
                if d >> 3 == c >> 3 and p.strength[d] > p.strength[c]:
                    p.above[c] |= (<uint32_t>1) << d
            p.better[c] = p.above[c] | (0 if c >> 3 == p.trump else SUIT_MASK[p.trump])
        p.factor = _number(spec, "factor", 1, 2)
        p.last_trick = 10 * p.factor if p.bidder == NO_BIDDER else 0    # ledig: tricks only
        p.round_points = CARD_POINTS_TOTAL * p.factor
        p.nat_82_points = MAKE_THRESHOLD * p.factor
        p.pit_mode = _number(spec, "pit_mode", 0, 2)
        p.pit_bonus = _number(spec, "pit_bonus", 0, MAX_AMOUNT)
        playing = _number(spec, "playing", 0, 1)
        for c in range(4):
            p.side[c] = 0 if c % 2 == playing else 1
        for c in range(2):
            # Hand roem: at most eight fours of a kind, the cards of all hands together.
            p.hand_roem[c] = _number(spec, "hand_roem", 0, 8 * MAX_AMOUNT, c, 2)
            p.hand_stuk[c] = _number(spec, "hand_stuk", 0, 20, c, 2)
        p.hand_needs_trick = _number(spec, "hand_needs_trick", 0, 1)
        for c in range(2):
            p.hand_settled[c] = p.hand_stuk[c] + (
                p.hand_roem[c] if p.hand_roem[c] >= p.hand_roem[1 - c] else 0)
        p.nat = _number(spec, "nat", 0, 2)
        p.multiplier = _number(spec, "multiplier", 1, 8)
        p.zero_bonus = _number(spec, "zero_bonus", 0, MAX_AMOUNT)
        p.flags_matter = p.pit_mode != PIT_NONE or p.hand_needs_trick
        p.score_bounded = p.nat == NAT_MAJORITY and p.multiplier == 1 and p.zero_bonus == 0
        _fill_search_tables(&p)
        check_rules_fit(&p)
        # Checked: commit.
        self.S.p = p
        self._spec = dict(spec)
        self._new_epoch()
        self._remember(&p)

    cdef void _remember(self, const Params* p):
        """Keep the spec just configured and its Params among the known ones."""
        if len(self._known_specs) < KNOWN_SPECS:
            self._known_specs.append(self._spec)
        else:
            self._known_specs[self._known_next] = self._spec
        self._known_params[self._known_next] = p[0]
        self._known_next = (self._known_next + 1) % KNOWN_SPECS

    cdef void _new_epoch(self):
        """Start a new rules context or deal: a new table epoch, and nothing learned."""
        forget_deal(&self.S)

    cdef State _searched(self, position, int metric) except *:
        """_state, for a search: table entries do not say who holds the cards (make_key), so
        a position dealt otherwise than the table's deal starts a new epoch."""
        cdef State s = self._state(position)
        cdef int taken
        if not METRIC_POINTS <= metric <= METRIC_LEDIG:
            raise ValueError(f"unknown metric {metric}")
        if (metric == METRIC_LEDIG) != (self.S.p.bidder != NO_BIDDER):
            raise ValueError("the ledig metric is for a round with a bidder, and only it")
        cdef uint32_t held = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3] | s.on_table
        if metric == METRIC_SCORE:
            # Its key holds the playing team's card points so far, not the defenders' (they
            # follow from the cards played).
            taken = card_points(&self.S.p, ~held)
            if s.tricks_left == 0:
                taken += self.S.p.last_trick
            if s.pts[0] + s.pts[1] != taken:
                raise ValueError(f"points so far {s.pts[0]} and {s.pts[1]} are not those of "
                                 f"the cards played ({taken})")
        adopt_deal(&self.S, &s)
        return s

    cdef State _state(self, position) except *:
        # The bidder's tricks so far may be left out (0): a trump round has none.
        hands, trick, trick_leader, pts, roem, won, tricks_left, *bidder_won = position
        cdef State s
        cdef int i
        memset(&s, 0, sizeof(State))
        for i in range(4):
            s.hands[i] = _mask(hands[i])
        s.trick_leader = trick_leader
        s.tricks_left = tricks_left
        s.bidder_won = bidder_won[0] if bidder_won else 0
        for i in range(2):
            s.pts[i] = pts[i]
            s.roem[i] = roem[i]
            s.won[i] = won[i]
        for c in trick:   # replayed, so that the winner so far is tracked as in play
            play_card(&self.S.p, &s, c)
        check_position_fits(&self.S.p, &s)
        return s

    @staticmethod
    cdef tuple _position(const State* s):
        return ([_cards(s.hands[i]) for i in range(4)], [s.trick[i] for i in range(s.ntrick)],
                s.trick_leader, (s.pts[0], s.pts[1]), (s.roem[0], s.roem[1]),
                (s.won[0], s.won[1]), s.tricks_left, s.bidder_won)

    def legal(self, position):
        """The legal cards of the player to move, as indices."""
        self._require_ready()
        cdef State s = self._state(position)
        return _cards(legal_moves(&self.S.p, &s))

    def play(self, position, int card):
        """The position after `card` is played by the player to move (no legality check)."""
        self._require_ready()
        cdef State s = self._state(position)
        play_card(&self.S.p, &s, card)
        return Engine._position(&s)

    def final_value(self, position, int metric):
        """The metric of a finished round."""
        self._require_ready()
        cdef State s = self._state(position)
        return final_value(&self.S.p, metric, &s)

    def bounds(self, position, int metric):
        """(least, most) the metric's final value can be, from what is left (at a trick
        boundary; the score only under the rules of score_bounds): what the search uses to
        skip a position."""
        self._require_ready()
        cdef State s = self._state(position)
        cdef int low, high
        if s.ntrick != 0:
            raise ValueError("bounds are known at a trick boundary")
        if metric == METRIC_LEDIG:
            if self.S.p.bidder == NO_BIDDER:
                raise ValueError("the ledig metric is for a round with a bidder")
            ledig_to_come(&self.S.p, &s, &low, &high)
        elif metric != METRIC_SCORE:
            bounds_to_come(&self.S.p, metric, &s, &low, &high)
            tighten_by_trumps(&self.S.p, metric, &s, &low, &high)
        elif not score_bounds(&self.S.p, &s, &low, &high):
            raise ValueError("the score has no bounds under these rules")
        cdef int base = progress(&self.S.p, metric, &s)
        return base + low, base + high

    def roem_to_come(self, position):
        """The most roem on the table the tricks left can still make, both teams together
        (the bound's share of roem), at a trick boundary."""
        self._require_ready()
        cdef State s = self._state(position)
        cdef ToCome c
        if s.ntrick != 0:
            raise ValueError("roem to come is known at a trick boundary")
        to_come(&self.S.p, &s, &c)
        return c.roem

    def search(self, position, int metric, int alpha=-INF, int beta=INF):
        """Fail-soft alpha-beta: the metric's final value if it lies inside (alpha, beta),
        else a bound on the side of the window it falls (as alpha-beta always does).
        Ctrl-C stops it within a few hundredths of a second with KeyboardInterrupt."""
        self._require_ready()
        cdef State s = self._searched(position, metric)
        cdef int value
        self.S.metric = metric      # part of every table key, so metrics share the table
        self.S.root_ply = ply_of(&s)
        self._sync_oracle(&s)
        self._busy = True
        try:
            with nogil:
                value = search_from(&self.S, &s, alpha, beta)
        finally:
            self._busy = False
        self._raise_if_interrupted()
        return value

    def child_values(self, position, int metric, int window=ROOT_WINDOW):
        """[(card, value)] for every legal card of the player to move, in card order: the
        metric's exact value after the card. The cards are searched best-first, each after the
        first in a window from `window` worse than the best value so far to just better than
        it, and again when its value falls outside."""
        self._require_ready()
        cdef State s = self._searched(position, metric)
        return self._child_values(&s, metric, window)

    cdef list _child_values(self, const State* s, int metric, int window):
        """child_values of a State made ready for a search (by _searched, or replayed in C)."""
        cdef int cards[MAX_MOVES]
        cdef int values[MAX_MOVES]
        cdef int n
        self.S.metric = metric
        self._sync_oracle(s)
        self._busy = True
        try:
            with nogil:
                n = child_values(&self.S, s, window, cards, values)
        finally:
            self._busy = False
        self._raise_if_interrupted()
        return [(cards[i], values[i]) for i in range(n)]

    def child_bounds(self, position, int metric, int alpha, int beta):
        """[(card, value)] for every legal card, in card order, each searched in the same
        window (alpha, beta): fail-soft, so exact inside it and a bound outside (enough for
        a yes/no test such as `make`)."""
        self._require_ready()
        cdef State s = self._searched(position, metric)
        cdef State child
        cdef uint32_t moves = legal_moves(&self.S.p, &s)
        cdef int card, value
        out = []
        self.S.metric = metric
        self.S.root_ply = ply_of(&s)
        self._busy = True
        try:
            while moves:
                card = lowest(moves)
                moves &= moves - 1
                with nogil:
                    value = search_child(&self.S, &s, card, alpha, beta, &child)
                if self.S.interrupted:
                    break
                out.append((card, value))
        finally:
            self._busy = False
        self._raise_if_interrupted()
        return out

    def line(self, position, int metric, int low, int high, int max_cards=32,
             bint preferred=False):
        """One continuation that keeps the value of `position`, known to lie in low..high
        (low = high for an exact value; +-INFINITY for an open side): at every turn the first
        card after which it still does, in card order or (`preferred`) in the order the
        search prefers, which costs fewer tests. At most `max_cards` cards; [] if no card
        keeps it."""
        self._require_ready()
        cdef State s = self._searched(position, metric)
        cdef int cards[32]
        cdef int n
        self.S.metric = metric
        self.S.root_ply = ply_of(&s)
        self._busy = True
        try:
            with nogil:
                n = keep_line(&self.S, &s, low, high, preferred, max_cards, cards)
        finally:
            self._busy = False
        self._raise_if_interrupted()
        return [cards[i] for i in range(n)]

    def solve(self, position, int metric):
        """(value, line): the metric's exact value, and the line `line(position, metric,
        value, value, preferred=True)` gives, from one search: the root's search finds the
        line's first card too. A finished round has the line []."""
        self._require_ready()
        cdef State s = self._searched(position, metric)
        return self._solve(&s, metric)

    cdef tuple _solve(self, const State* s, int metric):
        """solve() of a State made ready for a search (by _searched, or replayed in C)."""
        cdef State child
        cdef int cards[32]
        cdef int n = 0, value
        self.S.metric = metric
        self.S.root_ply = ply_of(s)
        self._sync_oracle(s)
        self._busy = True
        try:
            with nogil:
                if s.tricks_left == 0:
                    value = final_value(&self.S.p, metric, s)
                else:
                    value = root_value(&self.S, s, cards)
                    if not self.S.interrupted:
                        child = s[0]
                        play(&self.S.p, &child, cards[0])
                        n = 1 + keep_line(&self.S, &child, value, value, True, 31, cards + 1)
        finally:
            self._busy = False
        self._raise_if_interrupted()
        return value, [cards[i] for i in range(n)]

    # -- positions replayed in C (_batch.pxi) ------------------------------------------------

    def moves_after(self, hands, int leader, bytes played, int metric,
                    int window=ROOT_WINDOW):
        """(first_bad, [(card, value)]): the position after the cards `played` (indices, as
        bytes) from the deal `hands` (four 32-bit sets, by seat) with `leader` leading trick
        1, replayed here with every card checked, then `child_values(position, metric,
        window)`. first_bad is -1 when every card was legal, else the index in `played` of the
        first that was not, with no values."""
        cdef State s
        cdef int first_bad = self._replayed(hands, leader, played, metric, &s)
        if first_bad != ROW_OK:
            return first_bad, []
        if s.tricks_left == 0:
            return ROW_OK, []
        adopt_deal(&self.S, &s)
        return ROW_OK, self._child_values(&s, metric, window)

    def solve_after(self, hands, int leader, bytes played, int metric):
        """(first_bad, value, line, totals): the position after the cards `played`, replayed
        and checked as moves_after does, then solve(position, metric); totals are each
        side's card points, roem and pit once the line is played out (side 0 the playing
        team's), as final_value counts them. With a bad card: its index, 0, [], (0, 0)."""
        cdef State s
        cdef int first_bad = self._replayed(hands, leader, played, metric, &s)
        if first_bad != ROW_OK:
            return first_bad, 0, [], (0, 0)
        adopt_deal(&self.S, &s)
        value, line = self._solve(&s, metric)
        return ROW_OK, value, line, self._totals(s, line)

    def position_after(self, hands, int leader, bytes played):
        """(first_bad, position): the position after the cards `played`, replayed and checked
        as moves_after does, as the searches take it; with a bad card, its index and None."""
        cdef State s
        cdef int first_bad = self._replayed(hands, leader, played, METRIC_POINTS, &s)
        if first_bad != ROW_OK:
            return first_bad, None
        return ROW_OK, Engine._position(&s)

    def totals_after(self, position, line):
        """Each side's card points, roem and pit (side 0 the playing team's) once the cards
        `line` are played from `position` to the end of the round, as final_value counts
        them (solve_after's totals)."""
        self._require_ready()
        return self._totals(self._state(position), line)

    cdef tuple _totals(self, State s, line):
        """Each side's total once the cards `line` are played from `s` (a copy) to the end."""
        cdef int card
        cdef int totals[2]
        for card in line:
            play_card(&self.S.p, &s, card)
        if s.tricks_left:
            raise ValueError(f"the line {list(line)} does not reach the end of the round")
        final_totals(&self.S.p, &s, totals)
        return totals[0], totals[1]

    cdef int _replayed(self, hands, int leader, bytes played, int metric, State* s) except? -2:
        """moves_after's and solve_after's replay: the arguments checked (ValueError), then
        the cards played from the deal, each checked, into `s`; the index of the first bad
        card, or ROW_OK."""
        self._require_ready()
        cdef uint32_t masks[4]
        _check_hands(hands, masks)
        if not 0 <= leader <= 3:
            raise ValueError(f"leader {leader} is not a seat 0..3")
        if not 0 <= metric <= 2:
            raise ValueError(f"metric {metric} is not one of 0..2")
        cdef const unsigned char* buffer = played
        cdef int first_bad = replay_played(&self.S.p, s, masks, leader, <const int8_t*>buffer,
                                           min(len(played), 33))
        if first_bad == ROW_OK:
            check_position_fits(&self.S.p, s)
        return first_bad

    def check_rows(self, list specs, const int32_t[::1] params_of, const uint32_t[:, ::1] hands,
                   const int8_t[::1] leader, const int8_t[:, ::1] played, int32_t[::1] status,
                   int8_t[::1] to_move):
        """status[r]: -1 when row r's cards played are legal from its deal (hands[r], four
        32-bit sets) under specs[params_of[r]] with leader[r] leading trick 1, and padded with
        -1 to the end, with to_move[r] the seat to move after them; else the index in
        played[r] of the first card that is not. Leaves the engine configured for specs[-1]."""
        cdef Params* params = self._params_of(specs, params_of, hands, leader, played,
                                              status.shape[0])
        cdef int row, rows = hands.shape[0]
        if to_move.shape[0] != rows:
            free(params)
            raise ValueError(f"to_move has {to_move.shape[0]} rows, not {rows}")
        try:
            with nogil:
                for row in range(rows):
                    status[row] = check_row(&params[params_of[row]], &hands[row, 0],
                                            leader[row], &played[row, 0], &to_move[row])
        finally:
            free(params)

    def search_rows(self, list specs, const int32_t[::1] params_of, list thresholds,
                    const uint32_t[:, ::1] hands, const int8_t[::1] leader,
                    const int8_t[:, ::1] played, int metric, int16_t[:, ::1] out,
                    int window=ROOT_WINDOW, lead=None, exact=None, margin=None,
                    given=None):
        """out[r, card]: for each row checked by check_rows, every card's value for `metric`
        after it (as child_values), or where thresholds[params_of[r]] is not None,
        whether that value reaches it (1 or 0, as child_bounds); -32768 for a card that is
        not legal. With `lead` (int8[rows], a legal card of each row) and `exact`
        (uint8[rows, 32]): lead[r]'s exact value, and for each other card its exact value
        (exact 1) or a bound on it (exact 0), as row_against gives them: its null window is
        tried `margin[r, card]` (int16[rows, 32], default 0s) worse than lead's value for the
        player to move (better, for a negative margin), and it is exact wherever it is better
        than both lead's value and that window; a margin of INFINITY + 1 leaves the card
        unsearched, with the bound +-INFINITY (exact 0), one of INFINITY + 2 searches it
        exactly. With `given` (int16[rows], lead's values for the playing team, known) lead is
        not searched, and each other card gets one null window at its margin: its bound where
        it holds, else +-INFINITY. The rows are searched in one call without the GIL, in
        order, sharing this engine's table and move-ordering memory while the deal stays the
        same. Leaves the engine configured for specs[-1]."""
        self._require_idle()
        if len(thresholds) != len(specs):
            raise ValueError(f"{len(thresholds)} thresholds for {len(specs)} specs")
        if not METRIC_POINTS <= metric <= METRIC_LEDIG:
            raise ValueError(f"metric {metric} is not one of 0..3")
        cdef int rows = hands.shape[0], i, done
        cdef const int8_t[::1] leads
        cdef uint8_t[:, ::1] flags
        cdef const int8_t* lead_of = NULL
        cdef uint8_t* exact_of = NULL
        cdef const int16_t[:, ::1] margin_rows
        cdef int16_t* margins = NULL
        cdef const int16_t[::1] given_rows
        cdef const int16_t* given_of = NULL
        cdef int card, r
        if rows == 0:
            return 0
        if (lead is None) != (exact is None):
            raise ValueError("lead and exact go together")
        if lead is not None:
            leads, flags = lead, exact
            if leads.shape[0] != rows or flags.shape[0] != rows or flags.shape[1] != 32:
                raise ValueError(f"lead and exact must have {rows} rows (and 32 columns)")
            lead_of, exact_of = &leads[0], &flags[0, 0]
        if out.shape[0] != rows or out.shape[1] != 32:
            raise ValueError(f"out has shape {(out.shape[0], out.shape[1])}, not ({rows}, 32)")
        cdef Params* params = self._params_of(specs, params_of, hands, leader, played,
                                              out.shape[0])
        cdef int32_t* limits = <int32_t*>malloc(max(len(specs), 1) * sizeof(int32_t))
        if limits == NULL:
            free(params)
            raise MemoryError("no memory for the batch's thresholds")
        try:
            for i in range(len(specs)):
                if (metric == METRIC_LEDIG) != (params[i].bidder != NO_BIDDER):
                    raise ValueError("the ledig metric is for specs with a bidder, and only them")
                limits[i] = -INF if thresholds[i] is None else _number(
                    {"threshold": thresholds[i]}, "threshold", -INF + 1, INF - 1)
            margins = <int16_t*>calloc(rows * 32, sizeof(int16_t))
            if margins == NULL:
                raise MemoryError("no memory for the batch's margins")
            if margin is not None:
                margin_rows = margin
                if margin_rows.shape[0] != rows or margin_rows.shape[1] != 32:
                    raise ValueError(f"margin must have {rows} rows and 32 columns")
                # Checked in C: a Python call a margin cost a tenth of a millisecond a call.
                for r in range(rows):
                    for card in range(32):
                        if not -INF < margin_rows[r, card] <= SEARCHED_EXACTLY:
                            raise ValueError(f"margin {margin_rows[r, card]} (row {r}, card "
                                             f"{card}) is not in {-INF + 1}..{SEARCHED_EXACTLY}")
                        margins[32 * r + card] = margin_rows[r, card]
            if given is not None:
                given_rows = given
                if given_rows.shape[0] != rows:
                    raise ValueError(f"given must have {rows} rows")
                for r in range(rows):
                    if not -INF < given_rows[r] < INF:
                        raise ValueError(f"given value {given_rows[r]} (row {r}) is not in "
                                         f"{-INF + 1}..{INF - 1}")
                given_of = &given_rows[0]
            self.S.metric = metric
            self._busy = True
            try:
                with nogil:
                    done = search_rows(&self.S, params, &params_of[0], limits, &hands[0, 0],
                                       &leader[0], &played[0, 0], rows, window, &out[0, 0],
                                       lead_of, margins, given_of, exact_of)
            finally:
                self._busy = False
                # Back to the rules configure() last set, with nothing learned from others.
                self.S.p = params[len(specs) - 1]
                self._new_epoch()
        finally:
            free(params)
            free(limits)
            free(margins)
        self._raise_if_interrupted()
        return done

    cdef Params* _params_of(self, list specs, const int32_t[::1] params_of,
                            const uint32_t[:, ::1] hands, const int8_t[::1] leader,
                            const int8_t[:, ::1] played, Py_ssize_t rows) except NULL:
        """Every spec's checked Params (configure() on each in turn), after checking that the
        arrays agree: `rows` rows, each a deal and a spec index in range."""
        cdef int row, seat, spec_count = len(specs)
        cdef uint32_t masks[4]
        if spec_count == 0:
            raise ValueError("no specs given")
        if (params_of.shape[0] != rows or hands.shape[0] != rows or hands.shape[1] != 4
                or leader.shape[0] != rows or played.shape[0] != rows or played.shape[1] != 32):
            raise ValueError(f"the arrays do not have {rows} rows of the same positions")
        for row in range(rows):
            if not 0 <= params_of[row] < spec_count:
                raise ValueError(f"row {row}: spec index {params_of[row]} is not one of "
                                 f"0..{spec_count - 1}")
            if not 0 <= leader[row] <= 3:
                raise ValueError(f"row {row}: leader {leader[row]} is not a seat 0..3")
            for seat in range(4):
                masks[seat] = hands[row, seat]
            try:
                _check_hands(masks, masks)
            except ValueError as err:
                raise ValueError(f"row {row}: {err}") from None
        cdef Params* params = <Params*>malloc(spec_count * sizeof(Params))
        if params == NULL:
            raise MemoryError("no memory for the batch's rules")
        try:
            for row in range(spec_count):
                self.configure(specs[row])
                params[row] = self.S.p
        except BaseException:
            free(params)
            raise
        return params

    def _raise_if_interrupted(self):
        if self.S.interrupted:
            self.S.interrupted = False
            _raise_pending_signal()

    def _require_idle(self):
        if self._busy:
            raise RuntimeError("this Engine is searching in another thread: use one Solver "
                               "per thread")

    def _require_ready(self):
        self._require_idle()
        if self._spec is None:
            raise RuntimeError("Engine.configure(spec) must be called before use")


cdef void _fill_search_tables(Params* p):
    """The tables of equivalent cards and of the bound, from the checked parameters."""
    cdef int suit, k, j, card, mask, tmp
    for mask in range(256):
        p.four_sum[mask] = 0
        for k in range(8):
            if mask >> k & 1:
                p.four_sum[mask] += p.four_kind[k]
    for suit in range(4):
        for k in range(8):
            p.order[suit][k] = suit * 8 + k
        for k in range(8):                  # insertion sort by strength
            j = k
            while j > 0 and p.strength[p.order[suit][j - 1]] > p.strength[p.order[suit][j]]:
                tmp = p.order[suit][j - 1]
                p.order[suit][j - 1] = p.order[suit][j]
                p.order[suit][j] = tmp
                j -= 1
        for k in range(8):
            for j in range(8):
                if j != k and p.points[suit * 8 + j] == p.points[suit * 8 + k]:
                    p.twins |= (<uint32_t>1) << (suit * 8 + k)
        for mask in range(256):
            p.suit_points[suit][mask] = 0
            for k in range(8):
                if mask >> k & 1:
                    p.suit_points[suit][mask] += p.points[suit * 8 + k]
    p.seat0 = 0 if p.side[0] == 0 else 1
    for mask in range(256):
        p.by_strength[mask] = 0
        p.trump_points[mask] = 0
        for k in range(8 if p.trump != NO_TRUMP else 0):                  # p.order: weakest first
            card = p.order[p.trump][k]
            if mask >> (card & 7) & 1:
                p.by_strength[mask] |= 1 << k
            if mask >> k & 1:
                p.trump_points[mask] += p.points[p.order[p.trump][k]]
    _fill_renaming(p)
    p.near_twin_metrics = near_twin_metrics(p)


cdef int _check_hands(hands, uint32_t* masks) except -1:
    """masks[seat] = hands[seat], when the four sets are a deal: 8 cards each, none twice."""
    if len(hands) != 4:
        raise ValueError(f"a deal has 4 hands, got {len(hands)}")
    cdef uint32_t seen = 0, mask
    cdef int seat
    for seat in range(4):
        mask = hands[seat]
        if popcount(mask) != 8 or mask & seen:
            raise ValueError(f"hand {seat} is not 8 cards apart from the other hands")
        seen |= mask
        masks[seat] = mask
    return 0


cdef int _number(dict spec, str name, int low, int high, int index=-1, int length=0) except? -1:
    """spec[name] (or spec[name][index]) as a C int, if it is a whole number in low..high."""
    value = spec[name]
    if index >= 0:
        if len(value) != length:
            raise ValueError(f"engine spec {name!r} must have {length} numbers, got {len(value)}")
        value = value[index]
    if not isinstance(value, int) or not low <= value <= high:
        where = f"{name}[{index}]" if index >= 0 else name
        raise ValueError(f"engine spec {where}={value!r} is not a whole number in {low}..{high}")
    return value


cdef int _raise_pending_signal() except -1:
    if PyErr_Occurred():
        return -1          # the signal handler's own exception, usually KeyboardInterrupt
    raise KeyboardInterrupt


cdef extern from *:
    # setup.py passes the sources' fingerprint (_source_hash.py) as a C macro; a build made
    # without it reads "unknown", which _compiled.py reports as stale.
    """
    #ifndef KLAVERJAS_SOURCE_HASH
    #define KLAVERJAS_SOURCE_HASH unknown
    #endif
    #define KLAVERJAS_STRING_OF(x) #x
    #define KLAVERJAS_STRING(x) KLAVERJAS_STRING_OF(x)
    static const char KLAVERJAS_BUILT_FROM[] = KLAVERJAS_STRING(KLAVERJAS_SOURCE_HASH);
    """
    const char* KLAVERJAS_BUILT_FROM


INFINITY = INF
WITHOUT_TRUMP = NO_TRUMP    # the spec's "trump" of a round without trump (ledig)
BUILT_FROM = KLAVERJAS_BUILT_FROM.decode("ascii")   # the sources this module was compiled from
ORACLE_BUILD = bool(ORACLE)   # built with KLAVERJAS_ENGINE_ORACLE=1 (Engine.attach_oracle)
