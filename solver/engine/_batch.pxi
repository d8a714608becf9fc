# Positions given as a deal and the cards played, replayed and searched in C: one call for
# a position (Solver.solve_moves) or for a whole batch of them (solver.batch), with no Python
# between the positions. Included by _engine.pyx after the search.

cdef enum:
    NOT_SEARCHED = INF + 1      # row_against's margin of a card to leave unsearched
    SEARCHED_EXACTLY = INF + 2  # row_against's margin of a card to search exactly
    ROW_OK = -1             # every card played was held and legal
    ROW_NO_VALUE = -32768   # the value column of a card that is not legal (int16)


cdef int replay_played(const Params* p, State* s, const uint32_t* hands, int leader,
                       const int8_t* played, int n) noexcept nogil:
    """`s`: the position after the first `n` cards of `played` from the deal `hands`, with
    `leader` leading trick 1. ROW_OK when every card was legal for the player to move (and so
    held); else the index in `played` of the first card that was not."""
    cdef int i, card
    memset(s, 0, sizeof(State))
    for i in range(4):
        s.hands[i] = hands[i]
    s.trick_leader = leader
    s.tricks_left = 8
    for i in range(n):
        card = played[i]
        if card < 0 or card > 31 or not (legal(p, s) >> card) & 1:
            return i
        play(p, s, card)
    return ROW_OK


cdef int cards_played(const int8_t* played) noexcept nogil:
    """How many cards a row of 32 holds before its -1 padding."""
    cdef int n = 0
    while n < 32 and played[n] >= 0:
        n += 1
    return n


cdef int check_row(const Params* p, const uint32_t* hands, int leader,
                   const int8_t* played, int8_t* to_move) noexcept nogil:
    """ROW_OK for a row whose cards played are legal and padded with -1 to the end, with the
    seat to move after them in to_move[0]; else the index of the first card that is not."""
    cdef State s
    cdef int n = cards_played(played), i
    cdef int bad = replay_played(p, &s, hands, leader, played, n)
    if bad != ROW_OK:
        return bad
    for i in range(n, 32):
        if played[i] != -1:
            return i
    to_move[0] = (s.trick_leader + s.ntrick) & 3
    return ROW_OK


cdef void forget_deal(Search* S) noexcept nogil:
    """A new table epoch, and nothing learned: for another deal or other rules."""
    new_epoch(S)
    memset(S.history, 0, sizeof(S.history))
    memset(S.killer, 0xFF, sizeof(S.killer))
    memset(S.owner, NO_OWNER, sizeof(S.owner))


cdef void adopt_deal(Search* S, const State* s) noexcept nogil:
    """Make `s`'s deal the table's: table entries do not say who holds the cards (make_key),
    so a position dealt otherwise than the table's deal starts a new epoch, with
    nothing learned: keeping the history and killers of the last world measured 1.02x the
    nodes of 64 worlds at trick 1, and centring each card's window on its value in the last
    world 1.02-1.08x. Only the cards held are read (a late position holds few)."""
    cdef int seat, card
    cdef uint32_t cards
    cdef bint other_deal = False
    for seat in range(4):
        cards = s.hands[seat]
        while cards:
            card = lowest(cards)
            cards &= cards - 1
            if S.owner[card] != NO_OWNER and S.owner[card] != seat:
                other_deal = True
    if other_deal:
        forget_deal(S)
    for seat in range(4):
        cards = s.hands[seat]
        while cards:
            card = lowest(cards)
            cards &= cards - 1
            S.owner[card] = seat


cdef void row_values(Search* S, const State* s, int window, int threshold,
                     int16_t* out) noexcept nogil:
    """out[card] for every card: its value for S.metric after it (Engine.child_values), or for
    threshold > -INF whether that value reaches it (1 or 0, Engine.child_bounds' null window);
    ROW_NO_VALUE for a card that is not legal. All ROW_NO_VALUE once the round is over."""
    cdef int cards[MAX_MOVES]
    cdef int values[MAX_MOVES]
    cdef int n = 0, i, card
    cdef uint32_t moves
    cdef State child
    for i in range(32):
        out[i] = ROW_NO_VALUE
    if s.tricks_left == 0:
        return
    if threshold == -INF:
        n = child_values(S, s, window, cards, values)
        for i in range(n):
            out[cards[i]] = values[i]
        return
    S.root_ply = ply_of(s)
    moves = legal(&S.p, s)
    while moves:
        card = lowest(moves)
        moves &= moves - 1
        out[card] = search_child(S, s, card, threshold - 1, threshold, &child) >= threshold
        if S.interrupted:
            return


cdef void row_against(Search* S, const State* s, int lead, const int16_t* margin,
                      int given, int16_t* out, uint8_t* exact) noexcept nogil:
    """out[lead]: the exact value after `lead` (a legal card); and for every other legal card
    either its exact value (exact[card] = 1) or (exact[card] = 0) a fail-soft bound on it for
    the player to move. A card's null window is tried margin[card] worse than lead's value
    (better, for a negative margin): it is exact wherever it is better than both lead's value
    and that window, and otherwise bounded by the higher of the two (for the player to move).
    The null windows cost a fraction of an exact search: a caller that wants the best card
    only (solver.analysis.view) refines the bounds that matter. Interchangeable cards
    (equivalent_cards) are searched once, as the most any of them asks: a card whose margin
    is NOT_SEARCHED is not searched at all (its bound is the engine's infinity), one whose
    margin is SEARCHED_EXACTLY is searched exactly, in the table the lead's search warmed.
    With `given` (not ROW_NO_VALUE), lead's value is known and not searched, and every other
    card (but those interchangeable with lead, and those searched exactly) gets its one null
    window only: its bound where it holds, else the engine's infinity (nothing known)."""
    cdef int kept_for[32]
    cdef int16_t margins[32]
    cdef int i, card, value, lead_value, target
    cdef uint32_t moves, kept, remaining
    cdef bint maximising, known
    cdef State child
    for i in range(32):
        out[i] = ROW_NO_VALUE
        exact[i] = 0
    if s.tricks_left == 0:
        return
    S.root_ply = ply_of(s)
    moves = legal(&S.p, s)
    if lead < 0 or lead > 31 or not (moves >> lead) & 1:
        lead = lowest(moves)        # not a legal card: the caller's slip, not a crash
    kept = equivalent_cards(&S.p, s, moves, kept_for)
    lead = kept_for[lead]
    # A card searched once for its interchangeable ones is searched as the most any of them
    # asks: bounded where its own margin leaves it unsearched, exactly where one asks that.
    for i in range(32):
        margins[i] = margin[i]
    remaining = moves
    while remaining:
        card = lowest(remaining)
        remaining &= remaining - 1
        if margins[kept_for[card]] == NOT_SEARCHED or margin[card] == SEARCHED_EXACTLY:
            margins[kept_for[card]] = margin[card]
    maximising = S.p.side[(s.trick_leader + s.ntrick) & 3] == 0
    if given != ROW_NO_VALUE:
        lead_value = given
    else:
        lead_value = search_child(S, s, lead, -INF, INF, &child)
    out[lead] = lead_value
    exact[lead] = 1
    kept &= ~((<uint32_t>1) << lead)
    while kept:
        card = lowest(kept)
        kept &= kept - 1
        known = False
        if margins[card] == NOT_SEARCHED:
            out[card] = INF if maximising else -INF     # nothing known: no bound at all
            continue
        if margins[card] == SEARCHED_EXACTLY:
            out[card] = search_child(S, s, card, -INF, INF, &child)
            exact[card] = 1
            if S.interrupted:
                return
            continue
        if given != ROW_NO_VALUE:
            # One null window: a bound where it fails low, nothing known where it fails high.
            target = lead_value - margins[card] if maximising else lead_value + margins[card]
            value = search_child(S, s, card, target - 1 + maximising, target + maximising,
                                 &child)
            if maximising and value > target:
                value = INF
            elif not maximising and value < target:
                value = -INF
        elif maximising:
            target = lead_value - margins[card]
            value = search_child(S, s, card, target, target + 1, &child)
            if value > target and target < lead_value:
                value = search_from(S, &child, lead_value, lead_value + 1)
            if value > max(lead_value, target):
                value = search_from(S, &child, value - 1, INF)
                known = True
        else:
            target = lead_value + margins[card]
            value = search_child(S, s, card, target - 1, target, &child)
            if value < target and target > lead_value:
                value = search_from(S, &child, lead_value - 1, lead_value)
            if value < min(lead_value, target):
                value = search_from(S, &child, -INF, value + 1)
                known = True
        if S.interrupted:
            return
        out[card] = value
        exact[card] = known
    while moves:
        card = lowest(moves)
        moves &= moves - 1
        out[card] = out[kept_for[card]]
        exact[card] = exact[kept_for[card]]


cdef int search_rows(Search* S, const Params* params, const int32_t* params_of,
                     const int32_t* thresholds, const uint32_t* hands, const int8_t* leader,
                     const int8_t* played, int rows, int window, int16_t* out,
                     const int8_t* lead, const int16_t* margin, const int16_t* given,
                     uint8_t* exact) noexcept nogil:
    """row_values for each of `rows` checked positions (check_row): row r is the deal
    hands[4r..4r+3] under params[params_of[r]], with leader[r] leading trick 1 and the cards
    played[32r..] (padded with -1); its values go to out[32r..32r+31]. With `lead` (not
    NULL), row_against(lead[r], margin[32r..], given[r]) instead (given NULL: none known), its
    exact flags to exact[32r..]. S.metric is
    set by the caller. Returns the rows done: fewer than `rows` after an interruption."""
    cdef int row, current = -1
    cdef State s
    for row in range(rows):
        if params_of[row] != current:
            current = params_of[row]
            S.p = params[current]
            forget_deal(S)
        replay_played(&S.p, &s, hands + 4 * row, leader[row], played + 32 * row,
                      cards_played(played + 32 * row))
        adopt_deal(S, &s)
        if lead != NULL:
            row_against(S, &s, lead[row], margin + 32 * row,
                        ROW_NO_VALUE if given == NULL else given[row], out + 32 * row,
                        exact + 32 * row)
        else:
            row_values(S, &s, window, thresholds[current], out + 32 * row)
        if S.interrupted:
            return row
    return rows
