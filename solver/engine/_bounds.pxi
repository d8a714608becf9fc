# Bounds on the value still to come, at a trick boundary. Included by _engine.pyx.
# RUN_MAX[ranks]: the most roem runs can still make from one suit's cards left (8-bit, by
# rank): a trick holds at most four cards of a suit, so one run of three (20) or four (50).
cdef int RUN_MAX[256]


cdef int _best_runs(int ranks):
    cdef int best = 0, low, length
    for low in range(6):
        for length in range(3, 5):
            if low + length <= 8 and (ranks >> low) & ((1 << length) - 1) == (1 << length) - 1:
                best = max(best, (20 if length == 3 else 50)
                           + _best_runs(ranks & ~(((1 << length) - 1) << low)))
    return best


cdef void _fill_run_max():
    cdef int ranks
    for ranks in range(256):
        RUN_MAX[ranks] = _best_runs(ranks)


_fill_run_max()


cdef inline uint32_t fold_ranks(uint32_t cards) noexcept nogil:
    """The ranks of which a set holds a card, in any suit (8-bit)."""
    cards |= cards >> 16
    return (cards | (cards >> 8)) & 0xFF


cdef struct ToCome:
    int points              # card points left, with the last trick
    int roem                # the most roem on the table still to come
    int hand_least[2]       # by side: the least and the most final_value adds for its hand
    int hand_most[2]
    int pit[2]              # by side: the pit bonus it can still get, else 0


cdef inline void to_come(const Params* p, const State* s, ToCome* c) noexcept nogil:
    """What is still to come, at a trick boundary: the pieces of every bound below."""
    cdef uint32_t left = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    c.points = card_points(p, left) + p.last_trick
    cdef uint32_t h0, h1, h2, h3, pairs, gaps, live, fours
    c.roem = 0
    if p.roem_table:
        # Roem on the table is made by one trick's four cards, one from each hand: a run's
        # cards, the four of a kind and the stuk of the trick lie in different hands. So a run
        # is made of live cards: cards of a run of three whose cards are all left and no two
        # in one hand (a run of four holds two such runs). Pairs one hand holds, by the lower
        # card: touching ranks (they block the runs of three starting there and one below),
        # and ranks two apart (the run starting there). This took the nodes of points at
        # trick 1 to 0.84x, of score to 0.77x.
        # (A pair across two suits only blocks starts above the sixth rank, masked out.)
        h0 = s.hands[0]
        h1 = s.hands[1]
        h2 = s.hands[2]
        h3 = s.hands[3]
        pairs = (h0 & (h0 >> 1)) | (h1 & (h1 >> 1)) | (h2 & (h2 >> 1)) | (h3 & (h3 >> 1))
        gaps = (h0 & (h0 >> 2)) | (h1 & (h1 >> 2)) | (h2 & (h2 >> 2)) | (h3 & (h3 >> 2))
        live = left & (left >> 1) & (left >> 2) & 0x3F3F3F3F & ~(pairs | (pairs >> 1) | gaps)
        if live:
            live |= (live << 1) | (live << 2)
            c.roem = min(RUN_MAX[live & 0xFF] + RUN_MAX[(live >> 8) & 0xFF]
                         + RUN_MAX[(live >> 16) & 0xFF] + RUN_MAX[live >> 24],
                         50 * s.tricks_left)
        # The trump Q and K touch: a hand holding both is a pair at the Q.
        if (p.stuk_trick and p.trump_qk and (left & p.trump_qk) == p.trump_qk
                and not (pairs & p.trump_qk & (p.trump_qk >> 1))):
            c.roem += 20
        if left & p.stuk_pair:
            c.roem += 20
        # The ranks of which every hand holds a card: each holds one of the four.
        fours = left & (left >> 8) & (left >> 16) & (left >> 24) & 0xFF
        if fours:
            c.roem += p.four_sum[fours & fold_ranks(h0) & fold_ranks(h1) & fold_ranks(h2)
                                 & fold_ranks(h3)]
    if not p.hand_needs_trick or (s.won[0] > 0 and s.won[1] > 0):
        # No longer depends on the play: stuk, and the combinations unless afgekeurd.
        c.hand_least[0] = c.hand_most[0] = p.hand_settled[0]
        c.hand_least[1] = c.hand_most[1] = p.hand_settled[1]
    else:
        c.hand_least[0] = c.hand_least[1] = 0
        c.hand_most[0] = p.hand_roem[0] + p.hand_stuk[0]
        c.hand_most[1] = p.hand_roem[1] + p.hand_stuk[1]
    # A pit: one side wins every trick, so the other has won none yet.
    c.pit[0] = p.pit_bonus if s.won[1] == 0 and p.pit_mode != PIT_NONE else 0
    c.pit[1] = p.pit_bonus if s.won[0] == 0 and p.pit_mode == PIT_ANY else 0


cdef inline void bounds_to_come(const Params* p, int metric, const State* s, int* low,
                                int* high) noexcept nogil:
    """The least and the most the value still to come can be (points and cards metrics):
    the card points and roem still to take, the last trick, a pit still possible, and the
    hand roem (a fixed amount once every side has won a trick it may need)."""
    cdef ToCome c
    to_come(p, s, &c)
    if metric == METRIC_CARDS:
        low[0] = 0
        high[0] = c.points
    else:
        points_to_come(&c, low, high)


cdef inline void points_to_come(const ToCome* c, int* low, int* high) noexcept nogil:
    """The least and the most of the points difference still to come."""
    low[0] = c.hand_least[0] - c.hand_most[1] - c.points - c.roem - c.pit[1]
    high[0] = c.hand_most[0] - c.hand_least[1] + c.points + c.roem + c.pit[0]


cdef inline bint score_bounds(const Params* p, const State* s, int* low, int* high) noexcept nogil:
    """The least and the most the final score can be, where a made round scores its points
    difference D and a nat one -T, T being everything both teams get (nat="majority",
    multiplier 1, no zero bonus); False under other rules. A made D is known once its least
    is above 0, a nat round once its most is 0 or less."""
    if not p.score_bounded:
        return False
    cdef ToCome c
    cdef int d_low, d_high
    to_come(p, s, &c)
    points_to_come(&c, &d_low, &d_high)
    if p.trump != NO_TRUMP:
        tighten_by_trumps(p, METRIC_POINTS, s, &d_low, &d_high)
    cdef int d = s.pts[0] + s.roem[0] - s.pts[1] - s.roem[1]
    cdef int taken = s.pts[0] + s.pts[1] + s.roem[0] + s.roem[1]
    cdef int t_least = taken + c.points + c.hand_least[0] + c.hand_least[1]
    cdef int t_most = (taken + c.points + c.roem + c.hand_most[0] + c.hand_most[1]
                       + max(c.pit[0], c.pit[1]))
    low[0] = d + d_low if d + d_low > 0 else -t_most
    high[0] = -t_least if d + d_high <= 0 else d + d_high
    return True


cdef inline bint sure_hand(const Params* p, const State* s, int seat, uint32_t run) noexcept nogil:
    """Whether the hand of `seat` holds nothing but trumps of `run` (by strength)."""
    cdef int shift = 8 * p.trump
    cdef uint32_t hand = s.hands[seat]
    return (hand != 0 and not (hand & ~(<uint32_t>0xFF << shift))
            and not (p.by_strength[(hand >> shift) & 0xFF] & ~run))


cdef inline void tighten_by_trumps(const Params* p, int metric, const State* s, int* low,
                                   int* high) noexcept nogil:
    """Tighten bounds_to_come by the highest trumps left (a quick-trick bound): each trump of
    the unbroken run at the top that one side holds wins the trick it falls on, as nothing
    left above it is the other side's and every card is played in the end, so its points go
    to that side; and that side wins a trick, so the other can take no pit. A hand of nothing
    but such trumps plays one to every trick: its side takes every trick left, so all the
    points, and the pit if the other side has won no trick (roem is at least 0)."""
    cdef int shift = 8 * p.trump
    cdef uint32_t ours = p.by_strength[(team_cards(p, s, True) >> shift) & 0xFF]
    cdef uint32_t theirs = p.by_strength[(team_cards(p, s, False) >> shift) & 0xFF]
    cdef uint32_t run
    cdef ToCome c
    if ours > theirs:           # by strength: the playing team holds the highest trump
        run = ours & ~((<uint32_t>2 << (31 - kj_leading_zeros(theirs))) - 1) if theirs else ours
        if sure_hand(p, s, p.seat0, run) or sure_hand(p, s, p.seat0 ^ 2, run):
            to_come(p, s, &c)
            low[0] = (c.points if metric == METRIC_CARDS else
                      c.hand_least[0] - c.hand_most[1] + c.points + c.pit[0])
            return
        if metric == METRIC_CARDS:
            low[0] += p.trump_points[run]
            return
        low[0] += 2 * p.trump_points[run]
        if s.won[0] == 0 and p.pit_mode == PIT_ANY:
            low[0] += p.pit_bonus       # the defenders' pit that points_to_come allowed for
    elif theirs:
        run = theirs & ~((<uint32_t>2 << (31 - kj_leading_zeros(ours))) - 1) if ours else theirs
        if sure_hand(p, s, p.seat0 ^ 1, run) or sure_hand(p, s, p.seat0 ^ 3, run):
            to_come(p, s, &c)       # the same for the defenders
            high[0] = (0 if metric == METRIC_CARDS else
                       c.hand_most[0] - c.hand_least[1] - c.points - c.pit[1])
            return
        if metric == METRIC_CARDS:
            high[0] -= p.trump_points[run]
            return
        high[0] -= 2 * p.trump_points[run]
        if s.won[1] == 0 and p.pit_mode != PIT_NONE:
            high[0] -= p.pit_bonus


cdef inline void ledig_to_come(const Params* p, const State* s, int* low,
                               int* high) noexcept nogil:
    """The least and the most the ledig metric still to come can be (minus the tricks the
    bidder takes from here), at a trick boundary. At worst the bidder takes every trick left,
    at best none, unless he cannot help taking some:
    - each trump of the unbroken run at the top of the trumps left that he holds wins the
      trick it falls on, and he plays every card he holds in the end;
    - leading with no card that any card left in another hand beats, he wins the trick and
      leads again from such a hand: he takes every trick left.
    At most he takes the tricks left but those of another hand's trumps above his highest."""
    cdef uint32_t mine = s.hands[p.bidder]
    cdef uint32_t others = (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]) & ~mine
    cdef uint32_t rest = mine, ours, theirs, up_to_his
    cdef int shift, seat, lost, most_lost = 0
    low[0] = -s.tricks_left
    high[0] = 0
    if s.trick_leader == p.bidder:
        while rest and not (p.better[lowest(rest)] & others):
            rest &= rest - 1
        if not rest:
            high[0] = -s.tricks_left
            return
    if p.trump != NO_TRUMP:
        shift = 8 * p.trump
        ours = p.by_strength[(mine >> shift) & 0xFF]
        theirs = p.by_strength[(others >> shift) & 0xFF]
        if ours > theirs:       # by strength: he holds the highest trump left
            if theirs:
                ours &= ~((<uint32_t>2 << (31 - kj_leading_zeros(theirs))) - 1)
            high[0] = -popcount(ours)
        elif theirs:
            # Another hand's trumps above his highest beat any card he plays to their trick:
            # those tricks (one a card, as they are one hand's) are not his.
            up_to_his = (<uint32_t>2 << (31 - kj_leading_zeros(ours))) - 1 if ours else 0
            for seat in range(4):
                if seat != p.bidder:
                    lost = popcount(p.by_strength[(s.hands[seat] >> shift) & 0xFF] & ~up_to_his)
                    if lost > most_lost:
                        most_lost = lost
            low[0] = most_lost - s.tricks_left
