# Declarations of the Cython core. Cards are indices 0..31 (suit * 8 + rank, ranks in natural
# order 7 8 9 T J Q K A); a set of cards is a 32-bit mask. Nothing outside this module packs bits.
from libc.stdint cimport int16_t, uint8_t, uint16_t, uint32_t, uint64_t

cpdef enum Undertrump:
    UNDERTRUMP_FORBIDDEN = 0
    UNDERTRUMP_MUST = 1
    UNDERTRUMP_FREE = 2

cpdef enum Nat:
    NAT_MAJORITY = 0
    NAT_82 = 1
    NAT_NONE = 2

cpdef enum Pit:
    PIT_ANY = 0
    PIT_PLAYING = 1
    PIT_NONE = 2

cpdef enum Metric:
    # What a search maximises for the playing team (side 0).
    METRIC_POINTS = 0   # playing total - defenders total (cards, last trick, roem, pit)
    METRIC_CARDS = 1    # playing team's card points + last trick (the nat="82" test)
    METRIC_SCORE = 2    # playing final score - defenders final score (path dependent)
    METRIC_LEDIG = 3    # minus the tricks the bidder took (a ledig round)

cdef struct Params:
    int trump               # NO_TRUMP (4) in a ledig round without trump: SUIT_MASK[4] is empty
    int bidder              # the ledig bidder's seat, else NO_BIDDER (4): no seat is
    bint amsterdam
    int undertrump
    bint roem_table
    bint stuk_trick
    uint32_t trump_qk       # the trump Q and K: stuk
    uint32_t stuk_pair      # trump_qk when stuk="hand" has a holder, else 0
    int stuk_holder
    int four_kind[8]        # roem for four of a rank, by rank
    int four_sum[256]       # four_kind summed over a set of ranks (8-bit)
    int points[32]          # card points, already doubled under double_suits
    int strength[32]        # higher wins within a suit; trumps above all plain cards
    uint32_t above[32]      # the cards of the same suit that beat it
    uint32_t better[32]     # the cards that beat it on a trick: above, and all trumps if it is none
    int last_trick          # 10, doubled under double_suits
    int pit_mode
    int pit_bonus
    int side[4]             # 0 for the playing team's seats, 1 for the defenders
    int hand_roem[2]        # roem-in-hand combinations by side, before afkeuren
    int hand_stuk[2]
    int hand_settled[2]     # what final_value adds for a side's hand once every side has won
                            # a trick (stuk, and the combinations unless afgekeurd)
    bint hand_needs_trick
    int nat
    int multiplier
    int factor              # 2 under double_suits, else 1
    int zero_bonus
    int round_points        # every card point with the last trick: 162, doubled under double_suits
    int nat_82_points       # what the playing team's card points must reach under nat="82"
    bint score_bounded      # the score is D if made (D > 0), else -T: see score_bounds
    bint flags_matter       # whether "has this side won a trick" changes what is to come
    int order[4][8]         # each suit's cards, weakest first (for equivalent cards)
    uint32_t twins          # cards with another card of their suit worth the same points
    int suit_points[4][256] # card points of a set of one suit's cards (by its 8-bit mask)
    uint8_t by_strength[256]    # a set of trumps (8-bit, by rank) as bits by strength, 7 the top
    int trump_points[256]   # card points of a set of trumps given by strength (as by_strength)
    int seat0               # a seat of the playing team (0 or 1)
    uint32_t zero_ranks[4]  # per suit, its 0-point cards (8-bit, by rank) if they are its
                            # weakest, in rank order; else 0 (see make_key)
    uint64_t down_one[4][256]  # per suit and set of its cards left (8-bit): the 0-point cards
    uint64_t down_two[4][256]  # that make_key moves one or two ranks down (see _fill_renaming),
                               # and (<< 32) the bits make_key keeps their holders in
    uint32_t near_twin_metrics  # bit m: near-twins bound each other under metric m (swap_bound)

cdef struct State:
    # Small types: the search copies a State for every card it tries.
    uint32_t hands[4]
    uint32_t on_table       # the cards of the current trick, as a set
    int16_t trick_points    # and their card points
    int16_t pts[2]          # card points + last trick, by side
    int16_t roem[2]         # roem on the table, by side
    uint8_t trick[4]        # cards of the current trick in playing order
    uint8_t ntrick
    uint8_t trick_leader
    uint8_t win_pos         # index in trick of the card winning so far
    uint8_t won[2]          # tricks won, by side
    uint8_t tricks_left     # tricks not yet finished, the current one included
    uint8_t bidder_won      # tricks the bidder of a ledig round took

cdef struct Key:
    # A position at a trick boundary, for the table. The cards' owners are not in it: they
    # are the deal's (Search.owner), except for the lowest three ranks of each suit, whose
    # owners are in `extra` (make_key renames 0-point cards among them).
    uint32_t left           # the cards left, 0-point cards renamed (see make_key)
    uint64_t extra          # leader, flags, metric, the owners of the lowest cards or (score
                            # metric) what was taken so far, and the table epoch: the bit
                            # layout is drawn in _table.pxi

cdef struct Entry:          # 16 bytes: a bucket of four is one 64-byte cache line
    uint32_t left
    int16_t lower
    int16_t upper
    uint64_t extra          # Key.extra, and the best move (see _table.pxi)

cdef uint32_t legal_moves(const Params* p, const State* s) noexcept nogil
cdef void play_card(const Params* p, State* s, int card) noexcept nogil
cdef int final_value(const Params* p, int metric, const State* s) noexcept nogil
cdef int progress(const Params* p, int metric, const State* s) noexcept nogil
