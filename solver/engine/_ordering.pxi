# Which moves to search, and in which order: equivalent cards dropped, the move-ordering
# heuristics, and the shallow lookahead near the root. Included by _engine.pyx.

cdef enum:
    TRUMP_WORTH = 25              # what the lookahead counts a trump still held as worth,
    MASTER_TRUMP_WORTH = 25       # and the highest trump left on top of that
    MAX_CARD_POINTS = 40          # the most points a card can be worth (Engine.configure)
    MOST_STRENGTH = 15            # the highest strength a card can have (Engine.configure)
    KILLER_AHEAD_FROM = 4         # the first ply where a killer goes before the lookahead
    NAT_GUESS_BELOW = 20          # a score guess below this is ordered as a nat round (a
                                  # guess counts trumps as points not yet taken); 0, 10, 30
                                  # and more measured worse

# The ordering's priority bands, highest first: a card's score is its band plus an offset
# within it (points * 64, strength, and history >> HISTORY_SHIFT), each offset far smaller
# than the gap to the next band (_check_bands, at import).
cdef enum:
    BAND_TABLE_MOVE = 1 << 28     # the table's best move
    BAND_KILLER = 1 << 27         # the killer of this depth and suit
    BAND_WINNER = 1 << 26         # a sure winner; the last card of a trick by its worth
    BAND_MIDDLE = 1 << 25         # a master an opponent can ruff; points on partner's trick
    BAND_LOSER = 1 << 24          # a loser, a discard: the cheapest first
    HISTORY_SHIFT = 8             # history counts are divided by 256 before they are added
    HISTORY_MOST = 1 << 30        # where a history count stops growing: >> 8, 1 << 22, a
                                  # quarter of the smallest band


def _check_bands():
    """Refuse to load a build whose ordering bands can overlap: each band at least twice the
    one below it, and every offset added within a band (card points, strength, history)
    smaller than the gap to the next."""
    bands = [BAND_LOSER, BAND_MIDDLE, BAND_WINNER, BAND_KILLER, BAND_TABLE_MOVE]
    most_offset = ((HISTORY_MOST >> HISTORY_SHIFT) + MAX_CARD_POINTS * 64
                   + MOST_STRENGTH * 64)
    if any(high < 2 * low for low, high in zip(bands, bands[1:])) or most_offset >= BAND_LOSER:
        raise RuntimeError(f"the engine's ordering bands overlap: bands {bands}, offsets up to "
                           f"{most_offset}")
    if HISTORY_MOST + 64 >= 1 << 31:
        raise RuntimeError("a history count can overflow an int")


_check_bands()

# -- equivalent cards ----------------------------------------------------------------------------

cdef inline uint32_t live_cards(const State* s) noexcept nogil:
    """The cards that can still meet one of the player to move's: the other hands', and
    those on the trick."""
    cdef int seat = (s.trick_leader + s.ntrick) & 3
    cdef uint32_t live = (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]) & ~s.hands[seat]
    return live | s.on_table if s.ntrick else live


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


cdef inline uint32_t drop_equivalent(const Params* p, const State* s,
                                     uint32_t moves) noexcept nogil:
    """`moves` with one card kept of each set of interchangeable ones: same suit, equal points,
    no live card (another hand's, or on the trick) between them in power, and neither able to
    make roem the other could not. Playing either leads to the same values."""
    if not two_in_a_suit(moves & p.twins):
        return moves        # the common case, decided here without a call
    return equivalent_cards(p, s, moves, NULL)


cdef inline uint32_t two_in_a_suit(uint32_t x) noexcept nogil:
    """Not 0 iff some suit (byte) of `x` holds two cards or more: each byte's count (at most
    8), plus 126, reaches its top bit iff the count is 2 or more."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return (x + 0x7E7E7E7E) & <uint32_t>0x80808080U


cdef inline uint32_t equivalent_cards(const Params* p, const State* s, uint32_t moves,
                                      int* kept_for) noexcept nogil:
    """drop_equivalent, and, if `kept_for` is given, kept_for[card] = the kept card that
    `card` is interchangeable with (itself for a kept card)."""
    cdef int c
    if kept_for != NULL:
        for c in range(32):
            kept_for[c] = c
    cdef uint32_t twins = moves & p.twins, suits = 0, x
    cdef int suit, k, card, prev
    for suit in range(4):
        x = twins & SUIT_MASK[suit]
        if x & (x - 1):
            suits |= SUIT_MASK[suit]
    if not suits:
        return moves                  # no two cards of a suit worth the same: nothing to drop
    cdef uint32_t live = live_cards(s)
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
                    if kept_for != NULL:
                        kept_for[card] = prev
                else:
                    prev = card
    return kept




# -- near-twins -----------------------------------------------------------------------------------

cdef uint32_t near_twin_metrics(const Params* p) noexcept nogil:
    """The metrics (bit m for metric m) under which swap_bound holds: those that add up what
    each trick gives a side, so not the score (nat, a multiplier); and, for the points, no
    roem on the table, which a swap could change (the card points and the bidder's tricks
    count none). Params.near_twin_metrics, set once with the rules."""
    cdef uint32_t metrics = (1 << METRIC_CARDS) | (1 << METRIC_LEDIG)
    if not p.roem_table:
        metrics |= 1 << METRIC_POINTS
    return metrics


cdef inline int swap_bound(const Params* p, uint32_t live, int metric, int a,
                           int b) noexcept nogil:
    """How far apart the values of two cards the player to move holds can be, under the
    metrics of near_twin_metrics; or -1 if they are not near-twins: of one suit, with no
    `live` card (another hand's, or on the trick) between them in power. Any line after one
    is then a line after the other with the two swapped: every other card beats and is
    beaten by both alike, so the same tricks go to the same sides and only the two cards'
    points may change sides: the points metric moves by at most twice their difference, the
    cards metric by once, the bidder's tricks not at all. (drop_equivalent drops twins worth
    the same before the search; this bounds the others by a value already searched.)"""
    if (a >> 3) != (b >> 3):
        return -1
    cdef int weak = a, strong = b
    if p.strength[a] > p.strength[b]:
        weak = b
        strong = a
    if p.above[weak] & ~p.above[strong] & ~((<uint32_t>1) << strong) & live:
        return -1
    if metric == METRIC_LEDIG:
        return 0
    cdef int d = abs(p.points[a] - p.points[b])
    return 2 * d if metric == METRIC_POINTS else d


cdef inline int lead_score(const Params* p, const State* s, int seat, int card) noexcept nogil:
    """How promising a lead is: a card no opponent can beat in its suit comes first, with a
    card partner can ruff; then masters an opponent can ruff; then the cheapest loser."""
    cdef uint32_t left = s.hands[(seat + 1) & 3], right = s.hands[(seat + 3) & 3]
    cdef uint32_t suit = SUIT_MASK[card >> 3], trumps = SUIT_MASK[p.trump]
    if (left | right) & p.above[card]:
        if (card >> 3) != p.trump and not (s.hands[(seat + 2) & 3] & suit) and (
                s.hands[(seat + 2) & 3] & trumps):
            # Into partner's void, for a ruff: ranked as a sure winner worth the points
            # this card saves (measured 0.96x the nodes of points at trick 1).
            return BAND_WINNER + (MAX_CARD_POINTS - p.points[card]) * 64
        return BAND_LOSER - p.points[card] * 64     # a loser: lead it cheaply
    if (card >> 3) != p.trump and (
            (not (left & suit) and (left & trumps)) or (not (right & suit) and (right & trumps))):
        return BAND_MIDDLE - p.points[card] * 64     # a master an opponent can ruff
    return BAND_WINNER + p.points[card] * 64         # a sure winner


cdef inline int ledig_score(const Params* p, const State* s, int seat, int card) noexcept nogil:
    """How promising a card is in a ledig round: the bidder ducks, shedding his highest card
    that does not win; his partner overtakes a trick the bidder is winning; the defenders let
    the bidder's card stand and play low before him."""
    cdef int strength = p.strength[card] * 64
    cdef uint32_t others
    if s.ntrick == 0:
        if seat == p.bidder:
            others = (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]) & ~s.hands[seat]
            # A card another hand beats, lowest first; a master last.
            return (BAND_MIDDLE if others & p.better[card] else BAND_LOSER) - strength
        return BAND_LOSER - strength     # lead low: under the bidder's cards
    cdef bint wins = beats(p, card, s.trick[s.win_pos])
    cdef int winner = (s.trick_leader + s.win_pos) & 3
    if seat == p.bidder:
        return (BAND_LOSER if wins else BAND_MIDDLE) + strength   # duck; shed the highest
    if p.side[seat] == p.side[p.bidder]:
        if winner == p.bidder:
            return (BAND_MIDDLE if wins else BAND_LOSER) + strength    # overtake him
        return BAND_LOSER + strength
    if winner == p.bidder:
        return (BAND_LOSER if wins else BAND_MIDDLE) + strength    # let his card stand
    if ((p.bidder - s.trick_leader) & 3) < s.ntrick:
        return BAND_LOSER + strength     # he has played and lost it: shed the highest
    return BAND_LOSER - strength     # low, under what the bidder may play


cdef inline int top_trump_term(uint32_t mine, uint32_t theirs) noexcept nogil:
    """horizon's MASTER_TRUMP_WORTH term for one side, from each side's trumps by strength."""
    return MASTER_TRUMP_WORTH if mine > theirs else -MASTER_TRUMP_WORTH if theirs else 0


cdef inline int last_card_score(const Params* p, const State* s, int seat, int card,
                                uint32_t winners, bint partner_wins) noexcept nogil:
    """How promising the last card of a trick is (trump game): what the finished trick is
    worth to the player's side (points and roem, taken or given away), less what horizon
    counts a trump spent as worth; the weakest card first among equals. The rule it replaced
    (win as cheaply as possible, else smear on partner or discard the cheapest) ruffed tricks
    not worth a trump; this measured 0.96x the nodes of points and moves at trick 1."""
    cdef int shift, worth = s.trick_points + p.points[card]
    cdef uint32_t mine, theirs
    if p.roem_table:
        worth += table_roem(p, s.on_table | ((<uint32_t>1) << card), s.hands[p.stuk_holder])
    if not ((winners >> card) & 1 or partner_wins):
        worth = -worth
    if (card >> 3) == p.trump:
        shift = 8 * p.trump
        mine = ((s.hands[seat] | s.hands[seat ^ 2]) >> shift) & 0xFF
        theirs = ((s.hands[seat ^ 1] | s.hands[seat ^ 3]) >> shift) & 0xFF
        worth += (top_trump_term(p.by_strength[mine & ~((<uint32_t>1) << (card & 7))],
                                 p.by_strength[theirs])
                  - top_trump_term(p.by_strength[mine], p.by_strength[theirs]) - TRUMP_WORTH)
    # worth first (a trick's points and roem are far too few to overflow), then the weakest
    return BAND_WINNER + (worth + 512) * (1 << 16) - p.strength[card] * 64


cdef inline int best_last_card(const Params* p, const State* s, uint32_t legal_set) noexcept nogil:
    """The legal card with the highest last_card_score (the first of equals)."""
    cdef int seat = (s.trick_leader + 3) & 3
    cdef uint32_t winners = p.better[s.trick[s.win_pos]]
    cdef bint partner_wins = p.side[(s.trick_leader + s.win_pos) & 3] == p.side[seat]
    cdef int best = -1, best_score = 0, card, score
    while legal_set:
        card = lowest(legal_set)
        legal_set &= legal_set - 1
        score = last_card_score(p, s, seat, card, winners, partner_wins)
        if best < 0 or score > best_score:
            best, best_score = card, score
    return best


cdef inline bint trump_last_card(const Params* p, const State* s) noexcept nogil:
    """Whether `s` is the last card of a trick in a trump game: ordered by last_card_score,
    with no killer (a killer first there measured 1.02x the nodes)."""
    return s.ntrick == 3 and p.bidder == NO_BIDDER


cdef int NO_HISTORY[32]     # all 0: order_moves without what earlier searches learned


cdef inline int order_moves(Search* S, const State* s, uint32_t moves, int tt_move,
                            int* out, bint learned=True) noexcept nogil:
    """Moves best-first: table move, killer, then by what the card does to the trick.
    Without `learned`, killer and history (which depend on earlier searches) are left out:
    the order is then a function of the position alone."""
    cdef const Params* p = &S.p
    cdef int n = 0, card, i, score, tmp
    cdef int scores[MAX_MOVES]
    cdef int seat = (s.trick_leader + s.ntrick) & 3
    cdef int killer = killer_of(S, s) if learned and not trump_last_card(p, s) else -1
    cdef const int* history = NO_HISTORY
    if learned:
        history = &S.history[s.ntrick][0]
    cdef uint32_t winners = 0
    cdef bint partner_wins = False
    if s.ntrick:
        winners = p.better[s.trick[s.win_pos]]
        partner_wins = p.side[(s.trick_leader + s.win_pos) & 3] == p.side[seat]
    while moves:
        card = lowest(moves)
        moves &= moves - 1
        if card == tt_move:
            score = BAND_TABLE_MOVE
        elif card == killer:
            score = BAND_KILLER
        elif p.bidder != NO_BIDDER and s.ntrick:
            score = ledig_score(p, s, seat, card) + (history[card] >> HISTORY_SHIFT)
        elif s.ntrick == 0:
            score = lead_score(p, s, seat, card) + (history[card] >> HISTORY_SHIFT)
        else:
            if s.ntrick == 3:
                score = last_card_score(p, s, seat, card, winners, partner_wins)
            elif (winners >> card) & 1:
                score = BAND_WINNER + p.points[card] * 64     # win it, with the most points
            elif partner_wins:
                score = BAND_MIDDLE + p.points[card] * 64     # smear points on partner's trick
            else:
                score = BAND_LOSER - p.points[card] * 64 - p.strength[card]   # cheapest discard
            score += history[card] >> HISTORY_SHIFT
        out[n] = card
        scores[n] = score
        i = n
        while i > 0 and scores[i - 1] < scores[i]:
            tmp = scores[i - 1]; scores[i - 1] = scores[i]; scores[i] = tmp
            tmp = out[i - 1]; out[i - 1] = out[i]; out[i] = tmp
            i -= 1
        n += 1
    return n



# -- the move picker -----------------------------------------------------------------------------

cdef enum PickerStage:
    STAGE_FIRST = 0     # the table's move, else the killer, alone: the rest not yet sorted
    STAGE_REST = 1      # the rest, sorted after the first was searched
    STAGE_SORTED = 2    # every move sorted at the start


cdef struct MovePicker:
    # The moves of one node in the order the search tries them (see start_picking). The
    # moves are the caller's array: then the picker itself never has its address taken, and
    # the compiler keeps its fields in registers.
    int* moves
    int n               # moves in `moves` so far
    int next            # the index of the next one to hand out
    PickerStage stage
    int first           # the staged first move (STAGE_FIRST), else -1
    int tt_move         # the table's move, or -1
    uint32_t legal_set
    int lookahead       # after a killer staged at a lookahead node, the rest's depth; else 0
    bint maximising


cdef inline void start_picking(MovePicker* mp, int* moves, Search* S, const State* s,
                               uint32_t legal_set, int tt_move, bint staged, int lookahead,
                               bint maximising) noexcept nogil:
    """Set up the moves of `s`. Where `staged`, the table's move, else the killer (if legal;
    at the last card of a trump trick, best_last_card instead), comes first and alone: most
    often it ends the search, and the rest are then never sorted. So does the killer at a
    node with a lookahead from the second trick on: the lookahead runs only if it must.
    Otherwise every move is sorted now (order_moves, then the lookahead `lookahead` cards deep
    if it is not 0), and moves[:mp.n] holds them all, for a look at them before the search
    (enhanced_cutoff). `moves` has room for MAX_MOVES."""
    mp.moves = moves
    mp.next = 0
    mp.tt_move = tt_move
    mp.legal_set = legal_set
    if tt_move >= 0:
        mp.first = tt_move
    elif trump_last_card(&S.p, s):
        mp.first = best_last_card(&S.p, s, legal_set) if staged else -1
    else:
        mp.first = killer_of(S, s)
    mp.lookahead = 0
    mp.maximising = maximising
    if (lookahead and s.ntrick != 3 and ply_of(s) >= KILLER_AHEAD_FROM and mp.first >= 0
            and (legal_set >> mp.first) & 1 and not oracle_orders(S, s)):
        # The killer first and alone, the lookahead only if it does not cut: from the second
        # trick on, 0.95x the nodes of points and moves at trick 1 (200 deals; the heaviest
        # tenth 0.92x and 0.91x). From the first trick on it saved less (0.95x and 0.97x),
        # and the killer moved to the front of the lookahead's order instead 0.98x.
        mp.lookahead = lookahead
        staged = True
    if staged and mp.first >= 0 and (legal_set >> mp.first) & 1 and not oracle_orders(S, s):
        mp.stage = STAGE_FIRST
        mp.moves[0] = mp.first
        mp.n = 1
        return
    mp.stage = STAGE_SORTED
    mp.first = -1
    mp.n = order_moves(S, s, drop_equivalent(&S.p, s, legal_set), tt_move, mp.moves)
    if oracle_orders(S, s):
        order_by_oracle(S, s, mp.moves, mp.n, maximising)
    elif lookahead and mp.n > 1:
        order_by_lookahead(S, s, mp.moves, mp.n, maximising, lookahead)


cdef inline bint next_move(MovePicker* mp, Search* S, const State* s, int* move) noexcept nogil:
    """The next move to search, in move[0]; False when there is none left."""
    if mp.next == mp.n:
        if mp.stage != STAGE_FIRST:
            return False
        # The rest, in order, sorted with what searching the first taught (history); an
        # equivalent of the first may be searched again.
        mp.stage = STAGE_REST
        mp.n = 1 + order_moves(S, s, drop_equivalent(&S.p, s, mp.legal_set)
                               & ~((<uint32_t>1) << mp.first), mp.tt_move, mp.moves + 1)
        if mp.lookahead and mp.n > 2:
            order_by_lookahead(S, s, mp.moves + 1, mp.n - 1, mp.maximising, mp.lookahead)
        if mp.next == mp.n:
            return False
    move[0] = mp.moves[mp.next]
    mp.next += 1
    return True


cdef inline int ply_of(const State* s) noexcept nogil:
    return (8 - s.tricks_left) * 4 + s.ntrick


cdef inline int killer_of(Search* S, const State* s) noexcept nogil:
    """The killer of this node: the move that last cut a search at this ply with this suit
    led (any lead, at a lead). One per ply alone was a worse first move at the second and
    fourth card of a trick, where a card that cut in another led suit is rarely good here;
    per suit led measured 0.87x the nodes of points at trick 1 on 200 deals, and 0.83x on
    the heaviest tenth."""
    return S.killer[ply_of(s)][killer_suit(s)]


cdef inline int killer_suit(const State* s) noexcept nogil:
    """Which of a ply's killers this node uses: the suit led, or 0 at a lead."""
    return (s.trick[0] >> 3) if s.ntrick else 0


cdef inline int lookahead_depth(int below_root, int ply, bint ledig) noexcept nogil:
    """How many cards deep a shallow search looks to order the moves of a node `ply` cards
    into the round and this many cards below the root, or 0 for none: to the end of the
    trick, in the first twelve cards below the root, and only in the round's first three
    tricks, or the root's own trick up to the fourth. The lead of the third trick was left
    to the table (a lookahead there cost 1.03x) until the killer went before the lookahead
    (start_picking): since then it measures 0.97x the nodes of points and 0.99x of moves at
    trick 1 (200 deals; the heaviest tenth 0.96x and 0.97x). A finished trick is a fair place
    to judge: ending there measured 0.91x the nodes of points and 0.89x of moves at trick 1
    (200 deals) of 6 cards deep near the root and 2-3 below; a trick further, or lookaheads
    below the twelfth card, cost more nodes than they save. Later in the round the table orders
    better than a guess: stopping at the round's twelfth card (where a root at trick 2 or
    3 looked twelve cards below it) measured 0.57x the nodes of moves after 6 cards played,
    0.37x after 10, 0.28x after 14 (200 positions each), the same at trick 1. In a ledig
    round (`ledig`) the third trick's lead stays with the table: its lookahead there measured
    1.02x the nodes."""
    if below_root >= 12 or (below_root == 8 and ledig):
        return 0
    if ply >= 12 and (below_root >= 4 or ply >= 16):
        return 0
    return 4 - (ply & 3)


cdef int horizon(Search* S, const State* s, int depth, int alpha, int beta) noexcept nogil:
    """The points difference taken after `depth` more cards, both sides at their best, each
    trump still held counted as TRUMP_WORTH points to its side and the highest one as
    MASTER_TRUMP_WORTH more (trumps take the tricks to come): a cheap guess, used only to
    order moves near the root. For the score metric a guess below NAT_GUESS_BELOW is shaped
    as the score of a round that is not made (see nat_guess)."""
    if depth == 0 or s.tricks_left == 0:
        return horizon_guess(S, s)
    S.nodes += 1
    # Interchangeable cards lead to the same guess: dropping them cost more than it saved.
    cdef uint32_t moves = legal(&S.p, s)
    cdef bint maximising = S.p.side[(s.trick_leader + s.ntrick) & 3] == 0
    cdef int best = -INF if maximising else INF
    cdef int value, card
    cdef State child
    while moves:
        card = lowest(moves)
        moves &= moves - 1
        child = s[0]
        play_onto(&S.p, s, &child, card)
        if depth == 1 or child.tricks_left == 0:
            value = horizon_guess(S, &child)      # a leaf, without a call
        else:
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


cdef inline int horizon_guess(const Search* S, const State* s) noexcept nogil:
    """horizon() at its depth: the points taken, and each side's trumps."""
    cdef uint32_t ours, theirs
    cdef int guess, shift = 8 * S.p.trump
    if S.metric == METRIC_LEDIG:
        return -s.bidder_won        # only the bidder's tricks count
    # Each side's trumps, as bits by strength: the larger set holds the highest trump.
    ours = S.p.by_strength[(team_cards(&S.p, s, True) >> shift) & 0xFF]
    theirs = S.p.by_strength[(team_cards(&S.p, s, False) >> shift) & 0xFF]
    guess = (s.pts[0] + s.roem[0] - s.pts[1] - s.roem[1]
             + TRUMP_WORTH * (popcount(ours) - popcount(theirs))
             + (MASTER_TRUMP_WORTH if ours > theirs else -MASTER_TRUMP_WORTH if theirs
                else 0))
    if S.metric == METRIC_SCORE and guess < NAT_GUESS_BELOW:
        return nat_guess(&S.p, s, guess)
    return guess


cdef inline int nat_guess(const Params* p, const State* s, int guess) noexcept nogil:
    """The score guess where the points guess is below NAT_GUESS_BELOW. A round that is not
    made scores minus everything both teams take, so what matters then is the roem made so
    far, and the points guess, scaled down, only breaks ties. Only where a made round scores
    its points difference (multiplier 1, no zero bonus): there it measured 0.87-0.98x the
    score nodes and 0.72x on the heaviest deal; with a multiplier or a zero bonus, mixed."""
    if p.multiplier > 1 or p.zero_bonus or p.nat == NAT_NONE:
        return guess
    return -(p.round_points + s.roem[0] + s.roem[1]) + guess // 8


cdef void order_by_lookahead(Search* S, const State* s, int* moves, int n,
                             bint maximising, int depth) noexcept nogil:
    """Reorder `moves` by a search `depth` cards deep of each, best first; ties keep their
    order."""
    cdef int guess[MAX_MOVES]
    cdef int i, j, tmp
    cdef State child
    for i in range(n):
        child = s[0]
        play_onto(&S.p, s, &child, moves[i])
        guess[i] = horizon(S, &child, depth - 1, -INF, INF)
        if not maximising:
            guess[i] = -guess[i]
    for i in range(1, n):
        j = i
        while j > 0 and guess[j - 1] < guess[j]:
            tmp = guess[j - 1]; guess[j - 1] = guess[j]; guess[j] = tmp
            tmp = moves[j - 1]; moves[j - 1] = moves[j]; moves[j] = tmp
            j -= 1


cdef inline bint oracle_orders(const Search* S, const State* s) noexcept nogil:
    """Whether the oracle orders this node's moves (never, in a normal build)."""
    return ORACLE and S.oracle != NULL and ply_of(s) - S.root_ply < S.oracle_plies


cdef void order_by_oracle(Search* S, const State* s, int* moves, int n,
                          bint maximising) noexcept nogil:
    """Reorder `moves` by each one's exact value (S.oracle's full-window search, whose nodes
    are its own), best first for the player to move; ties keep their order. Only in a build
    with KLAVERJAS_ENGINE_ORACLE=1: a perfect move order, to measure ours against."""
    cdef int value[MAX_MOVES]
    cdef int i, j, tmp
    cdef State child
    for i in range(n):
        child = s[0]
        play(&S.p, &child, moves[i])
        S.oracle.root_ply = ply_of(&child)
        value[i] = search_from(S.oracle, &child, -INF, INF)
        if not maximising:
            value[i] = -value[i]
    for i in range(1, n):
        j = i
        while j > 0 and value[j - 1] < value[j]:
            tmp = value[j - 1]; value[j - 1] = value[j]; value[j] = tmp
            tmp = moves[j - 1]; moves[j - 1] = moves[j]; moves[j] = tmp
            j -= 1


cdef inline int preferred_order(Search* S, const State* s, int* moves) noexcept nogil:
    """The legal cards of `s`, one of each interchangeable set, in the order the search
    would try them with nothing learned: by order_moves, and by the lookahead where the
    search looks ahead. A function of the position (and S.root_ply) alone. Their number."""
    cdef int n = order_moves(S, s, drop_equivalent(&S.p, s, legal(&S.p, s)), -1, moves, False)
    cdef int depth = lookahead_depth(ply_of(s) - S.root_ply, ply_of(s),
                                     S.p.bidder != NO_BIDDER)
    if oracle_orders(S, s):
        order_by_oracle(S, s, moves, n, S.p.side[(s.trick_leader + s.ntrick) & 3] == 0)
    elif depth and n > 1:
        order_by_lookahead(S, s, moves, n, S.p.side[(s.trick_leader + s.ntrick) & 3] == 0,
                           depth)
    return n
