# Bounds on the value still to come. Included by _engine.pyx.
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
