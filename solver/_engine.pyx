# The Cython core: packed card sets, legal moves, tricks, roem, and the alpha-beta search.
# Declarations are in _engine.pxd. The search runs without the GIL and reports no errors:
# `Engine.configure` checks every number it is given before any of it is used.
from cpython.exc cimport PyErr_Occurred
from libc.stdint cimport uint16_t, uint32_t, uint64_t, uintptr_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset

DEF INF = 32000
DEF MAX_MOVES = 8
DEF PLIES = 33
DEF NO_CUTOFF = -99999
DEF SIGNAL_CHECK_MASK = 0x3FFFF   # look for Ctrl-C every 262,144 nodes (about 15 ms)
DEF SWEEP_PERIOD = 32768          # configures per full sweep of the table: half the epochs
DEF MAX_AMOUNT = 1000             # the largest bonus or roem option (rules.py, MAX_AMOUNT)
DEF LOOKAHEAD_TOP = 5             # plies below the root whose moves a shallow search orders
DEF LOOKAHEAD_DEPTH = 6           # the depth of that search
DEF BUCKET = 4                    # entries in a bucket: 4 x 32 bytes, two 64-byte cache lines

cdef extern from "Python.h":
    # Declared without an error value on purpose: a pending KeyboardInterrupt stays set and
    # is raised by Engine.search once the search has unwound.
    int PyErr_CheckSignals()

cdef uint32_t SUIT_MASK[4]
SUIT_MASK[:] = [0x000000FF, 0x0000FF00, 0x00FF0000, 0xFF000000]

# Roem of a run on the table, by the 8-bit set of ranks of one suit in a trick.
cdef int RUN_ROEM[256]


cdef int _longest_run(int bits):
    cdef int best = 0, run = 0, r
    for r in range(8):
        if bits & (1 << r):
            run += 1
            best = max(best, run)
        else:
            run = 0
    return best


cdef void _fill_run_roem():
    cdef int bits, n
    for bits in range(256):
        n = _longest_run(bits)
        RUN_ROEM[bits] = 20 if n == 3 else (50 if n >= 4 else 0)


_fill_run_roem()


cdef inline int popcount(uint32_t x) noexcept nogil:
    return __builtin_popcount(x)


cdef inline int lowest(uint32_t x) noexcept nogil:
    return __builtin_ctz(x)


cdef extern from *:
    int __builtin_popcount(unsigned int) nogil
    int __builtin_ctz(unsigned int) nogil
    void __builtin_prefetch(const void*) nogil


# -- the rules of one trick --------------------------------------------------------------------

cdef uint32_t legal_moves(const Params* p, const State* s) noexcept nogil:
    return legal(p, s)


cdef void play_card(const Params* p, State* s, int card) noexcept nogil:
    play(p, s, card)


cdef inline uint32_t legal(const Params* p, const State* s) noexcept nogil:
    """The cards the player to move may play (RULES.md, "Duties")."""
    cdef int seat = (s.trick_leader + s.ntrick) & 3
    cdef uint32_t hand = s.hands[seat]
    if s.ntrick == 0:
        return hand
    cdef int led = s.trick[0] >> 3
    cdef uint32_t trump_mask = SUIT_MASK[p.trump]
    cdef int top = s.trick[s.win_pos]
    cdef bint trumped = (top >> 3) == p.trump     # the winning card is a trump iff any is
    cdef uint32_t follow = hand & SUIT_MASK[led]
    cdef uint32_t higher
    if follow:
        if led == p.trump:
            higher = follow & p.beats[top]
            if higher:
                return higher
        return follow
    cdef uint32_t trumps = hand & trump_mask
    if not trumps:
        return hand
    higher = (trumps & p.beats[top]) if trumped else trumps
    cdef uint32_t lower = trumps & ~higher
    cdef uint32_t others = hand & ~trump_mask
    if p.amsterdam and ((s.trick_leader + s.win_pos) & 3) == (seat ^ 2):
        if lower and others and p.undertrump == UNDERTRUMP_FORBIDDEN:
            return hand & ~lower
        return hand
    if not trumped:
        return trumps
    if higher:
        return higher
    if p.undertrump == UNDERTRUMP_FORBIDDEN:
        return others if others else hand
    if p.undertrump == UNDERTRUMP_MUST:
        return trumps
    return hand


cdef inline bint beats(const Params* p, int card, int top) noexcept nogil:
    if (card >> 3) == (top >> 3):
        return p.strength[card] > p.strength[top]
    return (card >> 3) == p.trump


cdef inline int table_roem(const Params* p, const State* s, uint32_t cards) noexcept nogil:
    """Roem made by the four cards of a finished trick (RULES.md, "Roem", roem="table")."""
    cdef int roem = 0, suit, rank
    for suit in range(4):
        roem += RUN_ROEM[(cards >> (8 * suit)) & 0xFF]
    rank = s.trick[0] & 7
    if cards == (<uint32_t>0x01010101 << rank):
        roem += p.four_kind[rank]
    cdef uint32_t pair = (<uint32_t>0x60) << (8 * p.trump)   # trump Q and K
    if p.stuk_trick and (cards & pair) == pair:
        roem += 20
    if p.stuk_pair and (cards & p.stuk_pair) and not (s.hands[p.stuk_holder] & p.stuk_pair):
        roem += 20   # stuk="hand": the holder played the second of the two
    return roem


cdef inline void play(const Params* p, State* s, int card) noexcept nogil:
    """Play `card` for the player to move; closes the trick after its fourth card."""
    cdef int seat = (s.trick_leader + s.ntrick) & 3
    cdef int i, winner, side, points = 0
    cdef uint32_t cards = 0
    s.hands[seat] &= ~((<uint32_t>1) << card)
    s.trick[s.ntrick] = card
    if s.ntrick == 0:
        s.win_pos = 0
    elif beats(p, card, s.trick[s.win_pos]):
        s.win_pos = s.ntrick
    s.ntrick += 1
    if s.ntrick < 4:
        return
    for i in range(4):
        cards |= (<uint32_t>1) << s.trick[i]
        points += p.points[s.trick[i]]
    winner = (s.trick_leader + s.win_pos) & 3
    side = p.side[winner]
    if s.tricks_left == 1:
        points += p.last_trick
    s.pts[side] += points
    if p.roem_table:
        s.roem[side] += table_roem(p, s, cards)
    s.won[side] += 1
    s.tricks_left -= 1
    s.trick_leader = winner
    s.ntrick = 0


# -- equivalent cards ----------------------------------------------------------------------------

cdef inline bint roem_neutral(const Params* p, uint32_t live, int card) noexcept nogil:
    """Whether `card` can make no roem on the table that a card of another rank could not:
    its four of a kind scores nothing, and no run of three through it has its other two
    cards live (in another hand or on the trick)."""
    if not p.roem_table:
        return True
    cdef int rank = card & 7, low
    if p.four_kind[rank]:
        return False
    cdef uint32_t mine = ((live >> (8 * (card >> 3))) & 0xFF) | (<uint32_t>1 << rank)
    for low in range(max(0, rank - 2), min(rank, 5) + 1):
        if (mine >> low) & 7 == 7:
            return False
    return True


cdef inline uint32_t drop_equivalent(const Params* p, const State* s, uint32_t moves) noexcept nogil:
    """`moves` with one card kept of each set of interchangeable ones: same suit, equal points,
    no live card (another hand's, or on the trick) between them in power, and neither able to
    make roem the other could not. Playing either leads to the same values."""
    cdef uint32_t twins = moves & p.twins, suits = 0, x
    cdef int i, suit, k, card, prev
    for suit in range(4):
        x = twins & SUIT_MASK[suit]
        if x & (x - 1):
            suits |= SUIT_MASK[suit]
    if not suits:
        return moves                  # no two cards of a suit worth the same: nothing to drop
    cdef int seat = (s.trick_leader + s.ntrick) & 3
    cdef uint32_t live = 0
    for i in range(4):
        if i != seat:
            live |= s.hands[i]
    for i in range(s.ntrick):
        live |= (<uint32_t>1) << s.trick[i]
    cdef uint32_t kept = moves
    for suit in range(4):
        if not (suits & SUIT_MASK[suit]):
            continue
        prev = -1
        for k in range(8):
            card = p.order[suit][k]
            if (live >> card) & 1:
                prev = -1             # a live card between: no longer interchangeable
            elif (moves >> card) & 1:
                if (prev >= 0 and p.points[card] == p.points[prev]
                        and roem_neutral(p, live, card) and roem_neutral(p, live, prev)):
                    kept &= ~((<uint32_t>1) << card)
                else:
                    prev = card
    return kept


cdef inline int bound_to_come(const Params* p, int metric, const State* s) noexcept nogil:
    """At a trick boundary: the largest size the value still to come can have (points and
    cards metrics): card points left, the last trick, roem, pit and hand roem."""
    cdef uint32_t left = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    cdef int points = (p.suit_points[0][left & 0xFF] + p.suit_points[1][(left >> 8) & 0xFF]
                       + p.suit_points[2][(left >> 16) & 0xFF] + p.suit_points[3][left >> 24]
                       + p.last_trick)
    if metric == METRIC_CARDS:
        return points
    cdef int roem = 0, rank
    cdef uint32_t four
    if p.roem_table:
        # A trick makes at most a run of four and stuk (70), or a four of a kind and stuk;
        # a four of a kind needs all four cards of its rank still in play, and comes once.
        roem = s.tricks_left * 70
        for rank in range(8):
            four = (<uint32_t>0x01010101) << rank
            if p.four_kind[rank] and (left & four) == four:
                roem += p.four_kind[rank]
    return points + roem + p.fixed_max


# -- values -----------------------------------------------------------------------------------

cdef int final_value(const Params* p, int metric, const State* s) noexcept nogil:
    """The metric of a finished round (scoring.py in C: hand roem, pit, nat, kraken)."""
    if metric == METRIC_CARDS:
        return s.pts[0]
    cdef int combo[2]
    cdef int total[2]
    cdef int pit[2]
    cdef int side
    for side in range(2):
        combo[side] = p.hand_roem[side]
        total[side] = s.pts[side] + s.roem[side] + p.hand_stuk[side]
        if p.hand_needs_trick and s.won[side] == 0:
            combo[side] = 0
            total[side] -= p.hand_stuk[side]
        pit[side] = 0
        if s.won[side] == 8 and (p.pit_mode == PIT_ANY or (p.pit_mode == PIT_PLAYING and side == 0)):
            pit[side] = p.pit_bonus
    for side in range(2):
        if combo[side] >= combo[1 - side]:      # afkeuren: the team with less loses it
            total[side] += combo[side]
    total[0] += pit[0]
    total[1] += pit[1]
    if metric == METRIC_POINTS:
        return total[0] - total[1]
    cdef bint made
    if p.nat == NAT_82 and p.multiplier == 1:
        made = s.pts[0] >= 82 * p.factor
    else:
        made = total[0] > total[1]
    cdef int pot = (162 * p.multiplier * p.factor
                    + total[0] - s.pts[0] + total[1] - s.pts[1])
    cdef int score
    if p.multiplier > 1 or (p.nat != NAT_NONE and not made):
        score = pot if made else -pot
    else:
        score = total[0] - total[1]
    if made and total[1] == 0:
        score += p.zero_bonus
    return score


cdef int progress(const Params* p, int metric, const State* s) noexcept nogil:
    """The part of the metric already fixed by finished tricks (0 for the score metric)."""
    if metric == METRIC_POINTS:
        return s.pts[0] + s.roem[0] - s.pts[1] - s.roem[1]
    if metric == METRIC_CARDS:
        return s.pts[0]
    return 0


# -- the search ----------------------------------------------------------------------------------

cdef struct Search:
    Params p
    int metric
    Entry* table
    uint64_t bucket_mask       # number of buckets - 1
    uint16_t epoch             # 1..65535; entries of other epochs are dead
    uint64_t sweep             # the next entry to scrub (see Engine._new_epoch)
    uint64_t nodes
    bint interrupted           # a signal handler raised: unwind without storing anything
    int history[32]
    int killer[PLIES]
    int root_ply               # the ply (cards played in the round) of the search's root


cdef inline uint64_t mix(uint64_t x) noexcept nogil:
    x ^= x >> 33
    x *= <uint64_t>0xff51afd7ed558ccd
    x ^= x >> 33
    x *= <uint64_t>0xc4ceb9fe1a85ec53
    x ^= x >> 33
    return x


cdef inline uint64_t key_extra(const Search* S, const State* s) noexcept nogil:
    """Everything besides the hands that the value still to come depends on."""
    cdef uint64_t extra = <uint64_t>s.trick_leader | (<uint64_t>S.metric << 60)
    if S.p.flags_matter or S.metric == METRIC_SCORE:
        extra |= (<uint64_t>(s.won[0] > 0) << 2) | (<uint64_t>(s.won[1] > 0) << 3)
    if S.metric == METRIC_SCORE:
        # The score is not additive (nat), so what was taken is part of the position.
        extra |= (<uint64_t>s.pts[0] << 4) | (<uint64_t>s.pts[1] << 16)
        extra |= (<uint64_t>s.roem[0] << 28) | (<uint64_t>s.roem[1] << 44)
    return extra


cdef inline Entry* bucket_of(Search* S, const State* s, uint64_t extra) noexcept nogil:
    """The bucket where this position's entry lives, if anywhere."""
    cdef uint64_t h = mix((<uint64_t>s.hands[0] << 32 | s.hands[1]) ^ mix(
        (<uint64_t>s.hands[2] << 32 | s.hands[3]) ^ extra * <uint64_t>0x9E3779B97F4A7C15))
    return S.table + (h & S.bucket_mask) * BUCKET


cdef inline Entry* probe(Search* S, const State* s, uint64_t extra, bint* found) noexcept nogil:
    """The entry for this position, or the slot to replace with it (found=False)."""
    return probe_bucket(S, bucket_of(S, s, extra), s, extra, found)


cdef inline Entry* probe_bucket(Search* S, Entry* bucket, const State* s, uint64_t extra,
                                bint* found) noexcept nogil:
    cdef Entry* victim = bucket
    cdef Entry* e
    cdef int i, worth, victim_worth = 99
    for i in range(BUCKET):
        e = bucket + i
        if e.epoch == S.epoch:
            if (e.extra == extra and e.hands[0] == s.hands[0] and e.hands[1] == s.hands[1]
                    and e.hands[2] == s.hands[2] and e.hands[3] == s.hands[3]):
                found[0] = True
                return e
            worth = popcount(e.hands[0] | e.hands[1] | e.hands[2] | e.hands[3])
        else:
            worth = -1     # empty, or left from an earlier search context
        # Replace what is cheapest to find again: an empty slot, else the smallest position.
        if worth < victim_worth:
            victim = e
            victim_worth = worth
    found[0] = False
    return victim


cdef inline int lead_score(const Params* p, const State* s, int seat, int card) noexcept nogil:
    """How promising a lead is: a card no opponent can beat in its suit comes first."""
    cdef uint32_t left = s.hands[(seat + 1) & 3], right = s.hands[(seat + 3) & 3]
    cdef uint32_t suit = SUIT_MASK[card >> 3], trumps = SUIT_MASK[p.trump]
    if (left | right) & p.above[card]:
        return (1 << 24) - p.points[card] * 64     # a loser: lead it cheaply
    if (card >> 3) != p.trump and (
            (not (left & suit) and (left & trumps)) or (not (right & suit) and (right & trumps))):
        return (1 << 25) - p.points[card] * 64     # a master an opponent can ruff
    return (1 << 26) + p.points[card] * 64         # a sure winner


cdef inline int order_moves(Search* S, const State* s, uint32_t moves, int tt_move,
                            int* out) noexcept nogil:
    """Moves best-first: table move, killer, then by what the card does to the trick."""
    cdef const Params* p = &S.p
    cdef int n = 0, card, i, score, tmp
    cdef int scores[MAX_MOVES]
    cdef int seat = (s.trick_leader + s.ntrick) & 3
    cdef int depth = (8 - s.tricks_left) * 4 + s.ntrick
    cdef int top
    cdef bint partner_wins
    while moves:
        card = lowest(moves)
        moves &= moves - 1
        if card == tt_move:
            score = 1 << 28
        elif card == S.killer[depth]:
            score = 1 << 27
        elif s.ntrick == 0:
            score = lead_score(p, s, seat, card) + (S.history[card] >> 8)
        else:
            top = s.trick[s.win_pos]
            partner_wins = p.side[(s.trick_leader + s.win_pos) & 3] == p.side[seat]
            if beats(p, card, top):
                # Win it; the last player wins as cheaply as it can.
                score = (1 << 26) + (p.points[card] * 64 if s.ntrick < 3 else -p.strength[card] * 64)
            elif partner_wins:
                score = (1 << 25) + p.points[card] * 64     # smear points on partner's trick
            else:
                score = (1 << 24) - p.points[card] * 64 - p.strength[card]   # cheapest discard
            score += S.history[card] >> 8
        out[n] = card
        scores[n] = score
        i = n
        while i > 0 and scores[i - 1] < scores[i]:
            tmp = scores[i - 1]; scores[i - 1] = scores[i]; scores[i] = tmp
            tmp = out[i - 1]; out[i - 1] = out[i]; out[i] = tmp
            i -= 1
        n += 1
    return n


cdef int enhanced_cutoff(Search* S, const State* s, int* moves, int n, bint maximising,
                         int alpha, int beta) noexcept nogil:
    """Enhanced transposition cutoff: before searching the last card of a trick, look each
    resulting position up in the table; one whose stored bound already refutes the window
    ends the search here. Returns the bound, or NO_CUTOFF."""
    cdef State children[MAX_MOVES]
    cdef uint64_t extras[MAX_MOVES]
    cdef Entry* buckets[MAX_MOVES]
    cdef Entry* entry
    cdef bint found
    cdef int i, gain, base = progress(&S.p, S.metric, s)
    for i in range(n):
        # Ask for every bucket first, so that the memory loads overlap.
        children[i] = s[0]
        play(&S.p, &children[i], moves[i])
        extras[i] = key_extra(S, &children[i])
        buckets[i] = bucket_of(S, &children[i], extras[i])
        __builtin_prefetch(buckets[i])
    for i in range(n):
        entry = probe_bucket(S, buckets[i], &children[i], extras[i], &found)
        if not found:
            continue
        gain = progress(&S.p, S.metric, &children[i]) - base
        if maximising and gain + entry.lower >= beta:
            return gain + entry.lower
        if not maximising and gain + entry.upper <= alpha:
            return gain + entry.upper
    return NO_CUTOFF


cdef void check_signals(Search* S) noexcept nogil:
    with gil:
        if PyErr_CheckSignals() != 0:
            S.interrupted = True


cdef inline int ply_of(const State* s) noexcept nogil:
    return (8 - s.tricks_left) * 4 + s.ntrick


cdef int horizon(Search* S, const State* s, int depth, int alpha, int beta) noexcept nogil:
    """The points difference taken after `depth` more cards, both sides at their best: a
    cheap guess, used only to order moves near the root (for every metric)."""
    if depth == 0 or s.tricks_left == 0:
        return s.pts[0] + s.roem[0] - s.pts[1] - s.roem[1]
    S.nodes += 1
    cdef uint32_t moves = drop_equivalent(&S.p, s, legal(&S.p, s))
    cdef bint maximising = S.p.side[(s.trick_leader + s.ntrick) & 3] == 0
    cdef int best = -INF if maximising else INF
    cdef int value, card
    cdef State child
    while moves:
        card = lowest(moves)
        moves &= moves - 1
        child = s[0]
        play(&S.p, &child, card)
        value = horizon(S, &child, depth - 1, alpha, beta)
        if maximising:
            best = max(best, value)
            alpha = max(alpha, best)
        else:
            best = min(best, value)
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best


cdef void order_by_lookahead(Search* S, const State* s, int* moves, int n,
                             bint maximising) noexcept nogil:
    """Reorder `moves` by a shallow search of each, best first; ties keep their order."""
    cdef int guess[MAX_MOVES]
    cdef int i, j, tmp
    cdef State child
    for i in range(n):
        child = s[0]
        play(&S.p, &child, moves[i])
        guess[i] = horizon(S, &child, LOOKAHEAD_DEPTH - 1, -INF, INF)
        if not maximising:
            guess[i] = -guess[i]
    for i in range(1, n):
        j = i
        while j > 0 and guess[j - 1] < guess[j]:
            tmp = guess[j - 1]; guess[j - 1] = guess[j]; guess[j] = tmp
            tmp = moves[j - 1]; moves[j - 1] = moves[j]; moves[j] = tmp
            j -= 1


cdef int alpha_beta(Search* S, const State* s, int alpha, int beta) noexcept nogil:
    """Fail-soft alpha-beta on the value still to come (final metric - progress so far).
    After an interruption it returns 0 at once; such values are never stored or returned."""
    cdef const Params* p = &S.p
    S.nodes += 1
    if (S.nodes & SIGNAL_CHECK_MASK) == 0:
        check_signals(S)
    if S.interrupted:
        return 0
    cdef State last
    if s.tricks_left <= 1:
        # The last trick plays itself: everyone holds one card.
        last = s[0]
        while last.tricks_left:
            play(p, &last, lowest(last.hands[(last.trick_leader + last.ntrick) & 3]))
        return final_value(p, S.metric, &last) - progress(p, S.metric, s)
    cdef bint at_boundary = s.ntrick == 0 and s.tricks_left >= 2
    cdef int most
    if at_boundary and S.metric != METRIC_SCORE:
        # What is left cannot move the value past the window: no search needed.
        most = bound_to_come(p, S.metric, s)
        if most <= alpha:
            return most
        if (0 if S.metric == METRIC_CARDS else -most) >= beta:
            return 0 if S.metric == METRIC_CARDS else -most
    cdef Entry* entry = NULL
    cdef bint found = False
    cdef uint64_t extra = 0
    cdef int tt_move = -1
    if at_boundary:
        extra = key_extra(S, s)
        entry = probe(S, s, extra, &found)
        if found:
            if entry.lower >= beta:
                return entry.lower
            if entry.upper <= alpha:
                return entry.upper
            if entry.lower == entry.upper:
                return entry.lower
            if entry.lower > alpha:
                alpha = entry.lower
            if entry.upper < beta:
                beta = entry.upper
            tt_move = entry.best
    cdef int alpha_start = alpha, beta_start = beta
    cdef int moves[MAX_MOVES]
    cdef int n = order_moves(S, s, drop_equivalent(p, s, legal(p, s)), tt_move, moves)
    cdef bint maximising = p.side[(s.trick_leader + s.ntrick) & 3] == 0
    if tt_move < 0 and n > 1 and ply_of(s) - S.root_ply < LOOKAHEAD_TOP:
        order_by_lookahead(S, s, moves, n, maximising)
    cdef int cutoff
    if s.ntrick == 3 and s.tricks_left >= 4:     # the children are big table positions
        cutoff = enhanced_cutoff(S, s, moves, n, maximising, alpha, beta)
        if cutoff != NO_CUTOFF:
            return cutoff
    cdef int best = -INF if maximising else INF
    cdef int best_move = moves[0]
    cdef int i, gain, value
    # Only the last card of a trick changes what has been taken.
    cdef bint closes = s.ntrick == 3
    cdef int base = progress(p, S.metric, s) if closes else 0
    cdef State child
    cdef int depth = (8 - s.tricks_left) * 4 + s.ntrick
    for i in range(n):
        child = s[0]
        play(p, &child, moves[i])
        gain = progress(p, S.metric, &child) - base if closes else 0
        if i == 0 or beta - alpha <= 1:
            value = gain + alpha_beta(S, &child, alpha - gain, beta - gain)
        elif maximising:
            # Principal variation search: prove the later moves no better with a null
            # window, and search again only when one is.
            value = gain + alpha_beta(S, &child, alpha - gain, alpha + 1 - gain)
            if alpha < value < beta:
                value = gain + alpha_beta(S, &child, value - 1 - gain, beta - gain)
        else:
            value = gain + alpha_beta(S, &child, beta - 1 - gain, beta - gain)
            if alpha < value < beta:
                value = gain + alpha_beta(S, &child, alpha - gain, value + 1 - gain)
        if S.interrupted:
            return 0
        if maximising:
            if value > best:
                best = value
                best_move = moves[i]
                if value > alpha:
                    alpha = value
        else:
            if value < best:
                best = value
                best_move = moves[i]
                if value < beta:
                    beta = value
        if alpha >= beta:
            S.killer[depth] = best_move
            S.history[best_move] += s.tricks_left * s.tricks_left
            break
    if at_boundary:
        # Probe again: the search below may have reused the slot found above.
        entry = probe(S, s, extra, &found)
        if not found:
            entry.hands[0] = s.hands[0]
            entry.hands[1] = s.hands[1]
            entry.hands[2] = s.hands[2]
            entry.hands[3] = s.hands[3]
            entry.extra = extra
            entry.epoch = S.epoch
            entry.lower = -INF
            entry.upper = INF
        if best <= alpha_start:
            entry.upper = min(entry.upper, best)
        elif best >= beta_start:
            entry.lower = max(entry.lower, best)
        else:
            entry.lower = best
            entry.upper = best
        entry.best = best_move
    return best


cdef inline int search_child(Search* S, const State* s, int card, int alpha, int beta,
                             State* child) noexcept nogil:
    """The metric's value (fail-soft, absolute) after `card` is played from `s`."""
    child[0] = s[0]
    play(&S.p, child, card)
    cdef int base = progress(&S.p, S.metric, child)
    return base + alpha_beta(S, child, alpha - base, beta - base)


cdef int child_values(Search* S, const State* s, int window, int* cards,
                      int* values) noexcept nogil:
    """Every legal card's exact value, in card order; windows around the previous value."""
    cdef uint32_t moves = legal(&S.p, s)
    cdef State child
    cdef int n = 0, card, value, low, high
    S.root_ply = ply_of(s)
    while moves:
        card = lowest(moves)
        moves &= moves - 1
        if n == 0:
            value = search_child(S, s, card, -INF, INF, &child)
        else:
            low, high = values[n - 1] - window, values[n - 1] + window
            value = search_child(S, s, card, low, high, &child)
            if value <= low:           # fail-soft: the value is at most this; find it
                value = search_child(S, s, card, -INF, value + 1, &child)
            elif value >= high:
                value = search_child(S, s, card, value - 1, INF, &child)
        if S.interrupted:
            return 0
        cards[n] = card
        values[n] = value
        n += 1
    return n


cdef int keep_line(Search* S, const State* start, int alpha, int beta, int low_ok,
                   int high_ok, int max_cards, int* cards) noexcept nogil:
    """The cards of Engine.line; its length, or 0 when no card keeps the value."""
    cdef State s = start[0]
    cdef State child
    cdef uint32_t moves
    cdef int n = 0, card, value
    cdef bint kept
    while s.tricks_left > 0 and n < max_cards:
        S.root_ply = ply_of(&s)
        moves = legal(&S.p, &s)
        kept = False
        while moves:
            card = lowest(moves)
            moves &= moves - 1
            if not moves:
                # The last candidate: some card keeps the value, and none before this did.
                child = s
                play(&S.p, &child, card)
                value = low_ok
            else:
                value = search_child(S, &s, card, alpha, beta, &child)
            if S.interrupted:
                return 0
            if low_ok <= value <= high_ok:
                cards[n] = card
                n += 1
                s = child
                kept = True
                break
        if not kept:
            return 0
    return n


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

    def __cinit__(self, int table_mb=16):
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
        self._spec = None
        self._busy = False

    def __dealloc__(self):
        free(self._memory)

    @property
    def table_entries(self):
        return (self.S.bucket_mask + 1) * BUCKET

    @property
    def nodes(self):
        """Nodes searched by this engine so far (take differences to count one search)."""
        return self.S.nodes

    @property
    def epoch(self):
        """The table epoch of the current rules, 1..65535."""
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
        cdef Params p
        cdef int c, d
        memset(&p, 0, sizeof(Params))
        p.trump = _number(spec, "trump", 0, 3)
        p.amsterdam = _number(spec, "amsterdam", 0, 1)
        p.undertrump = _number(spec, "undertrump", 0, 2)
        p.roem_table = _number(spec, "roem_table", 0, 1)
        p.stuk_trick = _number(spec, "stuk_trick", 0, 1)
        p.stuk_holder = _number(spec, "stuk_holder", -1, 3)
        p.stuk_pair = ((<uint32_t>0x60) << (8 * p.trump)) if p.stuk_holder >= 0 else 0
        p.stuk_holder = max(p.stuk_holder, 0)
        for c in range(8):
            p.four_kind[c] = _number(spec, "four_kind", 0, MAX_AMOUNT, c, 8)
        for c in range(32):
            p.points[c] = _number(spec, "points", 0, 40, c, 32)
            p.strength[c] = _number(spec, "strength", 0, 15, c, 32)
        for c in range(32):
            p.above[c] = 0
            for d in range(32):
                if d >> 3 == c >> 3 and p.strength[d] > p.strength[c]:
                    p.above[c] |= (<uint32_t>1) << d
            p.beats[c] = p.above[c] if c >> 3 == p.trump else 0
        p.factor = _number(spec, "factor", 1, 2)
        p.last_trick = 10 * p.factor
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
        p.nat = _number(spec, "nat", 0, 2)
        p.multiplier = _number(spec, "multiplier", 1, 8)
        p.zero_bonus = _number(spec, "zero_bonus", 0, MAX_AMOUNT)
        p.flags_matter = p.pit_mode != PIT_NONE or p.hand_needs_trick
        _fill_search_tables(&p)
        # Checked: commit.
        self.S.p = p
        self._spec = dict(spec)
        self._new_epoch()

    cdef void _new_epoch(self):
        """Start a new rules context. Entries are not cleared at once, which would touch the
        whole table: each call scrubs the next 1/SWEEP_PERIOD of it, so that every entry is
        gone long before its 16-bit epoch number comes round again."""
        cdef uint64_t entries = (self.S.bucket_mask + 1) * BUCKET
        cdef uint64_t chunk = (entries + SWEEP_PERIOD - 1) // SWEEP_PERIOD
        chunk = min(chunk, entries - self.S.sweep)
        memset(self.S.table + self.S.sweep, 0, chunk * sizeof(Entry))
        self.S.sweep = (self.S.sweep + chunk) % entries
        self.S.epoch = self.S.epoch % 65535 + 1       # 1..65535; 0 marks an empty slot
        memset(self.S.history, 0, sizeof(self.S.history))
        memset(self.S.killer, 0xFF, sizeof(self.S.killer))

    cdef State _state(self, position) except *:
        hands, trick, trick_leader, pts, roem, won, tricks_left = position
        cdef State s
        cdef int i
        memset(&s, 0, sizeof(State))
        for i in range(4):
            s.hands[i] = _mask(hands[i])
        s.trick_leader = trick_leader
        s.tricks_left = tricks_left
        for i in range(2):
            s.pts[i] = pts[i]
            s.roem[i] = roem[i]
            s.won[i] = won[i]
        s.ntrick = 0
        for c in trick:   # replayed so that the winner so far is tracked as in play
            s.trick[s.ntrick] = c
            if s.ntrick == 0 or beats(&self.S.p, c, s.trick[s.win_pos]):
                s.win_pos = s.ntrick
            s.ntrick += 1
        return s

    @staticmethod
    cdef tuple _position(const State* s):
        return ([_cards(s.hands[i]) for i in range(4)], [s.trick[i] for i in range(s.ntrick)],
                s.trick_leader, (s.pts[0], s.pts[1]), (s.roem[0], s.roem[1]),
                (s.won[0], s.won[1]), s.tricks_left)

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

    def search(self, position, int metric, int alpha=-INF, int beta=INF):
        """Fail-soft alpha-beta: the metric's final value if it lies inside (alpha, beta),
        else a bound on the side of the window it falls (as alpha-beta always does).
        Ctrl-C stops it within a few hundredths of a second with KeyboardInterrupt."""
        self._require_ready()
        cdef State s = self._state(position)
        cdef int base, value
        self.S.metric = metric      # part of every table key, so metrics share the table
        base = progress(&self.S.p, metric, &s)
        self.S.root_ply = ply_of(&s)
        self._busy = True
        try:
            with nogil:
                value = base + alpha_beta(&self.S, &s, alpha - base, beta - base)
        finally:
            self._busy = False
        self._raise_if_interrupted()
        return value

    def child_values(self, position, int metric, int window=8):
        """[(card, value)] for every legal card of the player to move, in card order: the
        metric's exact value after the card. Each card is first searched in a narrow window
        around the previous card's value, and again when its value falls outside."""
        self._require_ready()
        cdef State s = self._state(position)
        cdef int cards[MAX_MOVES]
        cdef int values[MAX_MOVES]
        cdef int n
        self.S.metric = metric
        self._busy = True
        try:
            with nogil:
                n = child_values(&self.S, &s, window, cards, values)
        finally:
            self._busy = False
        self._raise_if_interrupted()
        return [(cards[i], values[i]) for i in range(n)]

    def child_bounds(self, position, int metric, int alpha, int beta):
        """[(card, value)] for every legal card, in card order, each searched in the same
        window (alpha, beta): fail-soft, so exact inside it and a bound outside (enough for
        a yes/no test such as `make`)."""
        self._require_ready()
        cdef State s = self._state(position)
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

    def line(self, position, int metric, int alpha, int beta, int low_ok, int high_ok,
             int max_cards=32):
        """One continuation: at every turn the first card, in card order, whose position
        searched in (alpha, beta) gives a value in low_ok..high_ok (the value of `position`
        kept). At most `max_cards` cards; [] if no card keeps it."""
        self._require_ready()
        cdef State s = self._state(position)
        cdef int cards[32]
        cdef int n
        self.S.metric = metric
        self._busy = True
        try:
            with nogil:
                n = keep_line(&self.S, &s, alpha, beta, low_ok, high_ok, max_cards, cards)
        finally:
            self._busy = False
        self._raise_if_interrupted()
        return [cards[i] for i in range(n)]

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
    p.fixed_max = ((p.pit_bonus if p.pit_mode != PIT_NONE else 0) + p.hand_roem[0]
                   + p.hand_roem[1] + p.hand_stuk[0] + p.hand_stuk[1])


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


INFINITY = INF
BUILT_FROM = SOURCE_HASH   # fingerprint of the sources this module was compiled from
