# The transposition table: the key's bit layout, keys, buckets, probing, storing and
# replacement, and the table epochs. Included by _engine.pyx.
#
# Key.extra, and Entry.extra with the best move added (bit 0 on the right):
#
#   63       48 47    43 42                                   6 5    4 3    2 1    0
#  +-----------+--------+--------------------------------------+------+------+------+
#  |   epoch   |  best  |               position               |metric| flags|leader|
#  +-----------+--------+--------------------------------------+------+------+------+
#       16         5                      37                       2      2      2
#
#  flags     whether each side has won a trick (only where that changes what is to come)
#  position  points and moves metrics: who holds each suit's three lowest ranks (OWNER_BITS,
#            see make_key); score metric, what was taken so far, from bit 6 up:
#            the playing team's card points (9 bits), then each side's roem (14 bits each)
#  best      Entry only: the card searched best from there
#  epoch     the table epoch (1..MAX_EPOCH) the entry was written in; 0 for an empty slot
#
# The shifts follow from the widths: widening a field moves the ones above it, and
# _check_layout (at import) and check_rules_fit / check_position_fits (at configure and for
# each position given) refuse what does not fit.

cdef enum:
    BUCKET = 4                    # entries in a bucket: 4 x 16 bytes, one 64-byte cache line
    SWEEP_PERIOD = 32768          # configures per full sweep of the table: half the epochs

    LEADER_BITS = 2
    FLAG_BITS = 2
    METRIC_BITS = 2
    OWNER_BITS = 30               # (LOW_RANKS | LOW_RANKS << 3): two bits a card
    TAKEN_POINTS_BITS = 9
    TAKEN_ROEM_BITS = 14
    POSITION_BITS = TAKEN_POINTS_BITS + 2 * TAKEN_ROEM_BITS    # the wider of the two uses
    BEST_BITS = 5
    EPOCH_BITS = 16

    LEADER_SHIFT = 0
    FLAGS_SHIFT = LEADER_SHIFT + LEADER_BITS
    METRIC_SHIFT = FLAGS_SHIFT + FLAG_BITS
    POSITION_SHIFT = METRIC_SHIFT + METRIC_BITS
    ROEM_SHIFT = POSITION_SHIFT + TAKEN_POINTS_BITS            # the playing team's roem; the
    BEST_SHIFT = POSITION_SHIFT + POSITION_BITS                # defenders' right above it
    EPOCH_SHIFT = BEST_SHIFT + BEST_BITS
    KEY_BITS = EPOCH_SHIFT + EPOCH_BITS

    MAX_EPOCH = (1 << EPOCH_BITS) - 1
    LOW_RANKS = 0x07070707        # each suit's three lowest ranks: their holders are in the key


def _check_layout():
    """Refuse to load a build whose key layout does not fit its words."""
    problems = []
    if KEY_BITS > 64:
        problems.append(f"the key needs {KEY_BITS} bits, more than the 64 of Entry.extra")
    if (LOW_RANKS | LOW_RANKS << 3) >> OWNER_BITS or OWNER_BITS > POSITION_BITS:
        problems.append(f"the holders of the lowest ranks do not fit in {OWNER_BITS} bits, or "
                        f"those in the {POSITION_BITS} position bits")
    if 1 << LEADER_BITS < 4 or 1 << METRIC_BITS <= METRIC_SCORE or 1 << BEST_BITS < 32:
        problems.append("a seat, a metric or a card does not fit its field")
    if EPOCH_BITS > 8 * sizeof(uint16_t):
        problems.append(f"an epoch of {EPOCH_BITS} bits does not fit Search.epoch")
    if sizeof(Entry) != 16:
        problems.append(f"an entry takes {sizeof(Entry)} bytes, not 16: a bucket of {BUCKET} "
                        f"is no longer one 64-byte cache line")
    if INF > 32767:
        problems.append(f"INF={INF} does not fit an entry's 16-bit bounds")
    if problems:
        raise RuntimeError("the engine's table layout is wrong: " + "; ".join(problems))


_check_layout()


cdef int check_rules_fit(const Params* p) except -1:
    """Refuse rules under which what a score key holds could overflow its fields: all the
    card points of a round, and the most roem eight tricks can make."""
    cdef int round_points = card_points(p, 0xFFFFFFFF) + p.last_trick
    if round_points >= 1 << TAKEN_POINTS_BITS:
        raise ValueError(f"a round of {round_points} card points does not fit the table key")
    if 8 * most_trick_roem(p) >= 1 << TAKEN_ROEM_BITS:
        raise ValueError(f"roem of up to {most_trick_roem(p)} a trick does not fit the table key")
    # Every metric's value, stored in an entry's 16-bit bounds, stays inside (-INF, INF):
    # the score's, the largest, is at most the card points times the multiplier, with all the
    # roem, the pit bonus and the zero bonus on top.
    cdef int most_value = (round_points * p.multiplier + 8 * most_trick_roem(p)
                           + p.hand_roem[0] + p.hand_roem[1] + p.hand_stuk[0] + p.hand_stuk[1]
                           + p.hand_settled[0] + p.hand_settled[1] + p.pit_bonus + p.zero_bonus)
    if most_value >= INF:
        raise ValueError(f"a round worth up to {most_value} does not fit the table's values "
                         f"(below {INF})")
    return 0


cdef int check_position_fits(const Params* p, const State* s) except -1:
    """Refuse a position whose score key could overflow its fields: what was taken so far,
    with the most roem the tricks left can add."""
    if (max(s.pts[0], s.pts[1]) >= 1 << TAKEN_POINTS_BITS
            or s.roem[0] + s.roem[1] + most_trick_roem(p) * s.tricks_left
            >= 1 << TAKEN_ROEM_BITS):
        raise ValueError(f"points {(s.pts[0], s.pts[1])} and roem {(s.roem[0], s.roem[1])} "
                         f"so far are out of range")
    return 0


cdef inline void make_key(const Search* S, const State* s, Key* key) noexcept nogil:
    """The table key of a position at a trick boundary: the cards left and who leads, and
    everything else the value still to come depends on. Who holds a card is the deal's
    (Search.owner: a table epoch holds one deal), except that each suit's 0-point cards are
    renamed to the lowest ones (where that changes nothing, see _fill_renaming), so that
    positions that differ only in which 0-point cards are gone share an entry: for the
    three lowest ranks the key says who holds them."""
    key_of(S, s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3], s.hands[1] | s.hands[3],
           s.hands[2] | s.hands[3], s.trick_leader, s.won[0] > 0, s.won[1] > 0, s, key)


cdef inline void key_of(const Search* S, uint32_t left, uint32_t odd_seats, uint32_t high_seats,
                        int leader, bint won0, bint won1, const State* taken,
                        Key* key) noexcept nogil:
    """make_key from its parts: the cards left, those held by seats 1 or 3 and by seats 2 or
    3, the leader, whether each side has won a trick, and (score metric only) what `taken`
    says was taken so far."""
    cdef const Params* p = &S.p
    cdef uint64_t one, two, cards
    cdef uint64_t extra = ((<uint64_t>leader << LEADER_SHIFT)
                           | (<uint64_t>S.metric << METRIC_SHIFT)
                           | (<uint64_t>S.epoch << EPOCH_SHIFT))
    if p.flags_matter or S.metric == METRIC_SCORE:
        extra |= (<uint64_t>won0 << FLAGS_SHIFT) | (<uint64_t>won1 << (FLAGS_SHIFT + 1))
    if S.metric == METRIC_SCORE:
        # The score is not additive (nat), so what was taken is part of the position (the
        # defenders' card points follow from the cards left). Not renamed: no room for owners.
        key.left = left
        extra |= ((<uint64_t>taken.pts[0] << POSITION_SHIFT)
                  | (<uint64_t>taken.roem[0] << ROEM_SHIFT)
                  | (<uint64_t>taken.roem[1] << (ROEM_SHIFT + TAKEN_ROEM_BITS)))
    else:
        one = (p.down_one[0][left & 0xFF] | p.down_one[1][(left >> 8) & 0xFF]
               | p.down_one[2][(left >> 16) & 0xFF] | p.down_one[3][left >> 24])
        two = (p.down_two[0][left & 0xFF] | p.down_two[1][(left >> 8) & 0xFF]
               | p.down_two[2][(left >> 16) & 0xFF] | p.down_two[3][left >> 24])
        # The cards left and, above bit 32, the holders of the three lowest ranks of each
        # suit (two bits a card, in its suit's byte: seats 1 and 3 set bit 0 of the rank, seats
        # 2 and 3 bit 3), renamed together.
        cards = left | (<uint64_t>((odd_seats & LOW_RANKS)
                                   | ((high_seats & LOW_RANKS) << 3)) << 32)
        cards = (cards & ~(one | two)) | ((cards & one) >> 1) | ((cards & two) >> 2)
        key.left = <uint32_t>cards
        extra |= (cards >> 32) << POSITION_SHIFT
    key.extra = extra


cdef inline uint64_t best_mask() noexcept nogil:
    return ((<uint64_t>1 << BEST_BITS) - 1) << BEST_SHIFT


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
    # The key holds the epoch, so a match is a live entry. A key is in a bucket at most once:
    # the four tests are made without a branch each (the hit's place is not predictable).
    cdef uint32_t hits = 0
    cdef int i
    for i in range(BUCKET):
        hits |= (((bucket[i].extra & ~best_mask()) == key.extra)
                 & (bucket[i].left == key.left)) << i
    if hits:
        found[0] = True
        return bucket + lowest(hits)
    cdef Entry* victim = bucket
    cdef Entry* e
    cdef int worth, victim_worth = 99
    for i in range(BUCKET):
        e = bucket + i
        if (e.extra >> EPOCH_SHIFT) == S.epoch:
            worth = popcount(e.left)
        else:
            worth = -1     # empty, or left from an earlier epoch
        # Replace what is cheapest to find again: an empty slot, else the smallest position.
        if worth < victim_worth:
            victim = e
            victim_worth = worth
    found[0] = False
    return victim


cdef inline int best_move_of(const Entry* entry) noexcept nogil:
    """The card searched best from the entry's position."""
    return (entry.extra & best_mask()) >> BEST_SHIFT


cdef inline void store_entry(Search* S, Entry* bucket, const Key* key, int value, int alpha,
                             int beta, int best_move) noexcept nogil:
    """Record what the search of `key`'s position found: `value`, fail-soft in the window
    (alpha, beta) (a bound outside it, exact inside), and the card that gave it."""
    cdef bint found
    # Probe again: the search since the first probe may have reused the slot found then.
    cdef Entry* entry = probe_bucket(S, bucket, key, &found)
    count(S, TABLE_STORES)
    if not found:
        entry.left = key.left
        entry.lower = -INF
        entry.upper = INF
    if value <= alpha:
        entry.upper = min(entry.upper, value)
    elif value >= beta:
        entry.lower = max(entry.lower, value)
    else:
        entry.lower = value
        entry.upper = value
    entry.extra = key.extra | (<uint64_t>best_move << BEST_SHIFT)


cdef void new_epoch(Search* S) noexcept nogil:
    """Start a new rules context or deal: the entries of earlier epochs die. They are not
    cleared at once, which would touch the whole table: each call scrubs the next
    1/SWEEP_PERIOD of it, so that every entry is gone long before its epoch number comes
    round again."""
    cdef uint64_t entries = (S.bucket_mask + 1) * BUCKET
    cdef uint64_t chunk = (entries + SWEEP_PERIOD - 1) // SWEEP_PERIOD
    chunk = min(chunk, entries - S.sweep)
    memset(S.table + S.sweep, 0, chunk * sizeof(Entry))
    S.sweep = (S.sweep + chunk) % entries
    S.epoch = S.epoch % MAX_EPOCH + 1       # 1..MAX_EPOCH; 0 marks an empty slot


# -- the renaming tables of make_key -------------------------------------------------------------

cdef uint64_t _renamed_bits(int card):
    """A renamed card's bits in make_key: the card, and above bit 32 the two bits that say
    who holds it (see make_key)."""
    return (<uint64_t>1 << card) | (<uint64_t>9 << (32 + card))


cdef void _fill_renaming(Params* p):
    """Which 0-point cards make_key may rename. Renaming a suit's 0-point cards to its
    lowest ones keeps every value when they are its weakest cards in rank order (so every
    comparison and every card's points stay the same) and no roem can tell them apart: no
    four of a kind of their rank scores, and no run of three can use one of them."""
    cdef int suit, rank, bits, top
    cdef uint32_t zeros = 0
    cdef int gone
    for suit in range(4):
        p.zero_ranks[suit] = 0
        for rank in range(8):
            if p.points[suit * 8 + rank] == 0:
                p.zero_ranks[suit] |= 1 << rank
        # The 0-point cards must be the lowest ranks (at most three), in rank order the
        # weakest cards of the suit.
        top = -1
        for rank in range(8):
            if p.zero_ranks[suit] >> rank & 1:
                if p.strength[suit * 8 + rank] <= top:
                    p.zero_ranks[suit] = 0
                top = p.strength[suit * 8 + rank]
        for rank in range(8):
            if not (p.zero_ranks[suit] >> rank & 1) and p.strength[suit * 8 + rank] <= top:
                p.zero_ranks[suit] = 0
        if p.zero_ranks[suit] & (p.zero_ranks[suit] + 1) or p.zero_ranks[suit] > 7:
            p.zero_ranks[suit] = 0
        zeros |= p.zero_ranks[suit]
    for rank in range(8):
        if p.roem_table and p.four_kind[rank] and zeros >> rank & 1:
            for suit in range(4):
                p.zero_ranks[suit] = 0     # a scoring four of a kind could tell them apart
    for suit in range(4):
        for bits in range(256):
            p.down_one[suit][bits] = 0
            p.down_two[suit][bits] = 0
            if p.roem_table and _run_through(bits, p.zero_ranks[suit]):
                continue            # a run could tell them apart
            # The k-th lowest 0-point card left moves to rank k: down by the ranks gone below it.
            gone = 0
            for rank in range(8):
                if not (p.zero_ranks[suit] >> rank & 1):
                    continue
                if not (bits >> rank & 1):
                    gone += 1
                elif gone == 1:
                    p.down_one[suit][bits] |= _renamed_bits(8 * suit + rank)
                elif gone == 2:
                    p.down_two[suit][bits] |= _renamed_bits(8 * suit + rank)


cdef bint _run_through(int ranks, int some):
    """Whether `ranks` (8-bit) hold three in a row that take in one of `some`."""
    cdef int low
    for low in range(6):
        if (ranks >> low) & 7 == 7 and (some >> low) & 7:
            return True
    return False
