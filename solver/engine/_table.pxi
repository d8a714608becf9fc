# The transposition table: keys, buckets, probing and replacement. Included by _engine.pyx.

cdef enum:
    BUCKET = 4                    # entries in a bucket: 4 x 16 bytes, one 64-byte cache line
    SWEEP_PERIOD = 32768          # configures per full sweep of the table: half the epochs
    BEST_SHIFT = 43               # Entry.extra: the best move (5 bits) above the key's own bits,
    EPOCH_SHIFT = 48              # and the table epoch (16 bits) on top


cdef inline void make_key(const Search* S, const State* s, Key* key) noexcept nogil:
    """The table key of a position at a trick boundary: the cards left and who leads, and
    everything else the value still to come depends on. Who holds a card is the deal's
    (Search.owner: a table epoch holds one deal), except that each suit's 0-point cards are
    renamed to the lowest ones (where that changes nothing, see _fill_renaming), so that
    positions that differ only in which 0-point cards are gone share an entry: for the
    three lowest ranks the key says who holds them."""
    cdef const Params* p = &S.p
    cdef uint32_t left = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    cdef uint64_t one, two, cards
    cdef uint64_t extra = (<uint64_t>s.trick_leader | (<uint64_t>S.metric << 4)
                           | (<uint64_t>S.epoch << EPOCH_SHIFT))
    if p.flags_matter or S.metric == METRIC_SCORE:
        extra |= (<uint64_t>(s.won[0] > 0) << 2) | (<uint64_t>(s.won[1] > 0) << 3)
    if S.metric == METRIC_SCORE:
        # The score is not additive (nat), so what was taken is part of the position (the
        # defenders' card points follow from the cards left). Not renamed: no room for owners.
        key.left = left
        extra |= ((<uint64_t>s.pts[0] << 6) | (<uint64_t>s.roem[0] << 15)
                  | (<uint64_t>s.roem[1] << 29))
    else:
        one = (p.down_one[0][left & 0xFF] | p.down_one[1][(left >> 8) & 0xFF]
               | p.down_one[2][(left >> 16) & 0xFF] | p.down_one[3][left >> 24])
        two = (p.down_two[0][left & 0xFF] | p.down_two[1][(left >> 8) & 0xFF]
               | p.down_two[2][(left >> 16) & 0xFF] | p.down_two[3][left >> 24])
        # The cards left and, above bit 32, the holders of the three lowest ranks of each
        # suit (two bits a card, in its suit's byte: seats 1 and 3 set bit 0 of the rank, seats
        # 2 and 3 bit 3), renamed together.
        cards = left | (<uint64_t>(((s.hands[1] | s.hands[3]) & 0x07070707)
                                   | (((s.hands[2] | s.hands[3]) & 0x07070707) << 3)) << 32)
        cards = (cards & ~(one | two)) | ((cards & one) >> 1) | ((cards & two) >> 2)
        key.left = <uint32_t>cards
        extra |= (cards >> 32) << 6
    key.extra = extra


cdef inline Entry* bucket_of(Search* S, const Key* key) noexcept nogil:
    """The bucket where this key's entry lives, if anywhere."""
    # Independent multiplies (they overlap in the pipeline), folded once.
    cdef uint64_t h = (key.left * <uint64_t>0x9E3779B97F4A7C15
                       ^ key.extra * <uint64_t>0xC2B2AE3D27D4EB4F)
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
        if (e.extra >> EPOCH_SHIFT) == S.epoch:
            if (e.extra & ~(<uint64_t>31 << BEST_SHIFT)) == key.extra and e.left == key.left:
                found[0] = True
                return e
            worth = popcount(e.left)
        else:
            worth = -1     # empty, or left from an earlier epoch
        # Replace what is cheapest to find again: an empty slot, else the smallest position.
        if worth < victim_worth:
            victim = e
            victim_worth = worth
    found[0] = False
    return victim
