# The transposition table: keys, buckets, probing and replacement. Included by _engine.pyx.


cdef inline void make_key(const Search* S, const State* s, Key* key) noexcept nogil:
    """The table key of a position at a trick boundary: its hands with each suit's 0-point
    cards renamed to the lowest ones (where that changes nothing, see _fill_search_tables),
    so that positions that differ only in which 0-point cards are gone share an entry, and
    everything besides the hands that the value still to come depends on."""
    cdef const Params* p = &S.p
    cdef uint32_t left = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    cdef uint32_t one = (p.down_one[0][left & 0xFF] | p.down_one[1][(left >> 8) & 0xFF]
                         | p.down_one[2][(left >> 16) & 0xFF] | p.down_one[3][left >> 24])
    cdef uint32_t two = (p.down_two[0][left & 0xFF] | p.down_two[1][(left >> 8) & 0xFF]
                         | p.down_two[2][(left >> 16) & 0xFF] | p.down_two[3][left >> 24])
    cdef uint32_t moved = one | two, hand
    cdef int i
    for i in range(4):
        # The ranks they move to are empty: those 0-point cards are gone.
        hand = s.hands[i]
        key.hands[i] = (hand & ~moved) | ((hand & one) >> 1) | ((hand & two) >> 2)
    cdef uint64_t extra = <uint64_t>s.trick_leader | (<uint64_t>S.metric << 60)
    if p.flags_matter or S.metric == METRIC_SCORE:
        extra |= (<uint64_t>(s.won[0] > 0) << 2) | (<uint64_t>(s.won[1] > 0) << 3)
    if S.metric == METRIC_SCORE:
        # The score is not additive (nat), so what was taken is part of the position.
        extra |= (<uint64_t>s.pts[0] << 4) | (<uint64_t>s.pts[1] << 16)
        extra |= (<uint64_t>s.roem[0] << 28) | (<uint64_t>s.roem[1] << 44)
    key.extra = extra


cdef inline Entry* bucket_of(Search* S, const Key* key) noexcept nogil:
    """The bucket where this key's entry lives, if anywhere."""
    # Independent multiplies (they overlap in the pipeline), folded once.
    cdef uint64_t h = ((<uint64_t>key.hands[0] << 32 | key.hands[1]) * <uint64_t>0x9E3779B97F4A7C15
                       ^ (<uint64_t>key.hands[2] << 32 | key.hands[3]) * <uint64_t>0xC2B2AE3D27D4EB4F
                       ^ key.extra * <uint64_t>0x165667B19E3779F9)
    h ^= h >> 32
    h *= <uint64_t>0xD6E8FEB86659FD93
    h ^= h >> 32
    return S.table + (h & S.bucket_mask) * BUCKET


cdef inline Entry* probe_bucket(Search* S, Entry* bucket, const Key* key,
                                bint* found) noexcept nogil:
    """The key's entry in its bucket (bucket_of), or the slot to replace with it
    (found=False)."""
    cdef Entry* victim = bucket
    cdef Entry* e
    cdef int i, worth, victim_worth = 99
    for i in range(BUCKET):
        e = bucket + i
        if e.epoch == S.epoch:
            if (e.extra == key.extra and e.hands[0] == key.hands[0] and e.hands[1] == key.hands[1]
                    and e.hands[2] == key.hands[2] and e.hands[3] == key.hands[3]):
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
