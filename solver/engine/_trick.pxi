# The rules of one trick, in C: packed card sets, legal moves, the winner, roem on the table,
# and the values of a finished round. Included by _engine.pyx, so that gcc inlines across it.
# SUIT_MASK[NO_TRUMP] is empty: without trump every trump test finds no card.
cdef uint32_t SUIT_MASK[5]
SUIT_MASK[:] = [0x000000FF, 0x0000FF00, 0x00FF0000, 0xFF000000, 0]

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
    return kj_popcount(x)


cdef inline int lowest(uint32_t x) noexcept nogil:
    return kj_lowest_bit(x)


cdef extern from "_portable.h":
    # Each compiler's builtins, with a plain-C fallback: the one place that names them.
    int kj_popcount(uint32_t) nogil
    int kj_lowest_bit(uint32_t) nogil       # of a set that is not empty
    int kj_leading_zeros(uint32_t) nogil    # of a set that is not empty
    void kj_prefetch(const void*) nogil
    bint kj_unlikely(bint) nogil


cdef inline int card_points(const Params* p, uint32_t cards) noexcept nogil:
    """The card points of a set of cards."""
    return (p.suit_points[0][cards & 0xFF] + p.suit_points[1][(cards >> 8) & 0xFF]
            + p.suit_points[2][(cards >> 16) & 0xFF] + p.suit_points[3][cards >> 24])


cdef inline uint32_t team_cards(const Params* p, const State* s, bint playing) noexcept nogil:
    """The cards the playing team (or, if not `playing`, the defenders) still hold."""
    cdef int seat = p.seat0 if playing else p.seat0 ^ 1
    return s.hands[seat] | s.hands[seat ^ 2]


# -- the rules of one trick --------------------------------------------------------------------

cdef uint32_t legal_moves(const Params* p, const State* s) noexcept nogil:
    return legal(p, s)


cdef void play_card(const Params* p, State* s, int card) noexcept nogil:
    play(p, s, card)


cdef inline uint32_t legal(const Params* p, const State* s) noexcept nogil:
    """The cards the player to move may play (docs/rules.md, "What you must play")."""
    cdef int seat = (s.trick_leader + s.ntrick) & 3
    if s.ntrick == 0:
        return s.hands[seat]
    return legal_following(p, s.hands[seat], seat, s.trick[0] >> 3, s.trick[s.win_pos],
                           (s.trick_leader + s.win_pos) & 3)


cdef inline uint32_t legal_next(const Params* p, const State* s,
                                const State* after) noexcept nogil:
    """legal(p, after), where `after` is play_onto(p, s, after, card) of a card that did not
    end the trick: what that card did not change is read from `s` (see play_onto)."""
    cdef int n = after.ntrick
    cdef int win_pos = after.win_pos
    cdef int seat = (s.trick_leader + n) & 3
    cdef int top = after.trick[win_pos] if win_pos == n - 1 else s.trick[win_pos]
    cdef int led = (after.trick[0] if n == 1 else s.trick[0]) >> 3
    return legal_following(p, s.hands[seat], seat, led, top, (s.trick_leader + win_pos) & 3)


cdef inline uint32_t legal_following(const Params* p, uint32_t hand, int seat, int led, int top,
                                     int top_seat) noexcept nogil:
    """legal() for `seat` holding `hand`, not leading: suit `led` was led, and `top`, played by
    `top_seat`, is winning the trick so far."""
    cdef uint32_t trump_mask = SUIT_MASK[p.trump]
    cdef bint trumped = (top >> 3) == p.trump     # the winning card is a trump iff any is
    cdef uint32_t follow = hand & SUIT_MASK[led]
    cdef uint32_t higher
    if follow:
        if led == p.trump:
            higher = follow & p.better[top]     # top is a trump: the trumps above it
            if higher:
                return higher
        return follow
    cdef uint32_t trumps = hand & trump_mask
    if not trumps:
        return hand
    higher = trumps & p.better[top]     # all of them, if no trump is on the trick yet
    cdef uint32_t lower = trumps & ~higher
    cdef uint32_t others = hand & ~trump_mask
    if p.amsterdam and top_seat == (seat ^ 2):
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
    return (p.better[top] >> card) & 1


cdef int table_roem(const Params* p, uint32_t cards, uint32_t stuk_holder_hand) noexcept nogil:
    """Roem made by the four cards of a finished trick (docs/rules.md, "Roem", roem="table");
    `stuk_holder_hand`: what the stuk holder (stuk="hand") holds after it."""
    # Not inline: without it play() is small enough for gcc to inline everywhere (2.3% fewer
    # instructions where there is no roem on the table, the same where there is).
    # A suit with fewer than three cards in the trick makes no run; a rank held by all four
    # suits is a four of a kind.
    cdef int roem = (RUN_ROEM[cards & 0xFF] + RUN_ROEM[(cards >> 8) & 0xFF]
                     + RUN_ROEM[(cards >> 16) & 0xFF] + RUN_ROEM[cards >> 24]
                     + p.four_sum[cards & (cards >> 8) & (cards >> 16) & (cards >> 24) & 0xFF])
    if p.stuk_trick and (cards & p.trump_qk) == p.trump_qk:
        roem += 20
    if p.stuk_pair and (cards & p.stuk_pair) and not (stuk_holder_hand & p.stuk_pair):
        roem += 20   # stuk="hand": the holder played the second of the two
    return roem


cdef int most_trick_roem(const Params* p) noexcept nogil:
    """At least the most roem one trick can make under these rules: a four of a kind or a
    run of four, and stuk counted both ways."""
    if not p.roem_table:
        return 0
    cdef int rank, most = 0
    for rank in range(8):
        most = max(most, p.four_kind[rank])
    return max(most, 50) + 40


cdef inline void play(const Params* p, State* s, int card) noexcept nogil:
    """Play `card` for the player to move; closes the trick after its fourth card."""
    play_onto(p, s, s, card)


cdef inline void play_onto(const Params* p, const State* s, State* after,
                           int card) noexcept nogil:
    """play() on `after`, a copy of `s` (or `s` itself), reading what it needs from `s`: a copy
    made just before is still in flight to memory, and reading its fields back cost a few
    percent of the search's time."""
    cdef int n = s.ntrick
    cdef int seat = (s.trick_leader + n) & 3
    cdef int winner, side, points, win_pos
    cdef uint32_t bit = (<uint32_t>1) << card
    cdef uint32_t on_table
    after.hands[seat] = s.hands[seat] & ~bit
    after.trick[n] = card
    if n == 0:
        win_pos = 0
        on_table = bit
        points = p.points[card]
    else:
        win_pos = s.win_pos
        if beats(p, card, s.trick[win_pos]):
            win_pos = n
        on_table = s.on_table | bit
        points = s.trick_points + p.points[card]
    if n < 3:
        after.win_pos = win_pos
        after.on_table = on_table
        after.trick_points = points
        after.ntrick = n + 1
        return
    winner = (s.trick_leader + win_pos) & 3
    side = p.side[winner]
    after.win_pos = win_pos
    after.on_table = on_table
    after.trick_points = points
    if s.tricks_left == 1:
        points += p.last_trick
    after.pts[side] = s.pts[side] + points
    if p.roem_table:
        after.roem[side] = s.roem[side] + table_roem(p, on_table, after.hands[p.stuk_holder])
    after.won[side] = s.won[side] + 1
    after.bidder_won = s.bidder_won + (winner == p.bidder)
    after.tricks_left = s.tricks_left - 1
    after.trick_leader = winner
    after.ntrick = 0


cdef inline void take_last_trick(const Params* p, State* s) noexcept nogil:
    """Play the last trick, everyone holding one card, at once: what play() does card by
    card. Its winner holds the one card left that nothing left beats."""
    cdef uint32_t left = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    cdef int led = lowest(s.hands[s.trick_leader]) >> 3
    cdef uint32_t contenders = left & SUIT_MASK[p.trump]
    if not contenders:
        contenders = left & SUIT_MASK[led]
    cdef int top = lowest(contenders)
    while p.better[top] & left:
        contenders &= contenders - 1
        top = lowest(contenders)
    cdef int seat = 0
    while not (s.hands[seat] >> top) & 1:
        seat += 1
    cdef int side = p.side[seat]
    s.pts[side] += card_points(p, left) + p.last_trick
    if p.roem_table:
        s.roem[side] += table_roem(p, left, 0)     # every hand is empty after it
    s.won[side] += 1
    s.bidder_won += seat == p.bidder
    s.tricks_left = 0
    s.trick_leader = seat
    s.hands[0] = s.hands[1] = s.hands[2] = s.hands[3] = 0


# -- values -----------------------------------------------------------------------------------

cdef inline void final_totals(const Params* p, const State* s, int* total) noexcept nogil:
    """Each side's card points, roem and pit at the end of a round (a trump round's; the
    Game's tallies): hand roem, afkeuren and the pit bonus (scoring.py in C)."""
    cdef int combo[2]
    cdef int side
    if not p.hand_needs_trick or (s.won[0] > 0 and s.won[1] > 0):
        total[0] = s.pts[0] + s.roem[0] + p.hand_settled[0]
        total[1] = s.pts[1] + s.roem[1] + p.hand_settled[1]
    else:
        for side in range(2):
            combo[side] = p.hand_roem[side]
            total[side] = s.pts[side] + s.roem[side] + p.hand_stuk[side]
            if s.won[side] == 0:
                combo[side] = 0
                total[side] -= p.hand_stuk[side]
        for side in range(2):
            if combo[side] >= combo[1 - side]:      # afkeuren: the team with less loses it
                total[side] += combo[side]
    if s.won[0] == 8 and p.pit_mode != PIT_NONE:       # a pit: every trick
        total[0] += p.pit_bonus
    if s.won[1] == 8 and p.pit_mode == PIT_ANY:
        total[1] += p.pit_bonus


cdef int final_value(const Params* p, int metric, const State* s) noexcept nogil:
    """The metric of a finished round (scoring.py in C: hand roem, pit, nat, kraken; ledig)."""
    if metric == METRIC_CARDS:
        return s.pts[0]
    if metric == METRIC_LEDIG:
        return -s.bidder_won
    cdef int total[2]
    final_totals(p, s, total)
    if metric == METRIC_POINTS:
        return total[0] - total[1]
    cdef bint made
    if p.nat == NAT_82 and p.multiplier == 1:
        made = s.pts[0] >= p.nat_82_points
    else:
        made = total[0] > total[1]
    cdef int pot = (p.round_points * p.multiplier
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
    if metric == METRIC_LEDIG:
        return -s.bidder_won
    return 0
