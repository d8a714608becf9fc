# The transposition table: keys, buckets, probing and replacement. Included by _engine.pyx.
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
