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


cdef inline void bounds_to_come(const Params* p, int metric, const State* s, int* low,
                                int* high) noexcept nogil:
    """The least and the most the value still to come can be (points and cards metrics):
    the card points and roem still to take, the last trick, a pit still possible, and the
    hand roem (a fixed amount once every side has won a trick it may need)."""
    cdef uint32_t left = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    cdef int points = (p.suit_points[0][left & 0xFF] + p.suit_points[1][(left >> 8) & 0xFF]
                       + p.suit_points[2][(left >> 16) & 0xFF] + p.suit_points[3][left >> 24]
                       + p.last_trick)
    if metric == METRIC_CARDS:
        low[0] = 0
        high[0] = points
        return
    cdef int roem = 0, rank, side
    cdef uint32_t four
    if p.roem_table:
        roem = min(RUN_MAX[left & 0xFF] + RUN_MAX[(left >> 8) & 0xFF]
                   + RUN_MAX[(left >> 16) & 0xFF] + RUN_MAX[left >> 24], 50 * s.tricks_left)
        four = (<uint32_t>0x60) << (8 * p.trump)        # trump Q and K
        if (p.stuk_trick and (left & four) == four) or (left & p.stuk_pair):
            roem += 20
        for rank in range(8):
            four = (<uint32_t>0x01010101) << rank
            if p.four_kind[rank] and (left & four) == four:
                roem += p.four_kind[rank]
    cdef int hand[2]
    cdef int fixed = 0
    if not p.hand_needs_trick or (s.won[0] > 0 and s.won[1] > 0):
        # What final_value adds for the hands no longer depends on the play.
        for side in range(2):
            hand[side] = p.hand_stuk[side]
            if p.hand_roem[side] >= p.hand_roem[1 - side]:
                hand[side] += p.hand_roem[side]
        fixed = hand[0] - hand[1]
        low[0] = fixed
        high[0] = fixed
    else:
        low[0] = -(p.hand_roem[1] + p.hand_stuk[1])
        high[0] = p.hand_roem[0] + p.hand_stuk[0]
    low[0] -= points + roem
    high[0] += points + roem
    # A pit: one side wins every trick, so the other has won none yet.
    if s.won[1] == 0 and p.pit_mode != PIT_NONE:
        high[0] += p.pit_bonus
    if s.won[0] == 0 and p.pit_mode == PIT_ANY:
        low[0] -= p.pit_bonus
