"""Pictures of a deal and its analysis in HTML: `render(analysis)` makes one self-contained
page (inline CSS, SVG and a little JS, nothing fetched), and the same pieces give every result
its `_repr_html_` in Jupyter.

>>> from solver import GameRecord, analyse_play
>>> from solver.report import render
>>> page = render(analyse_play(GameRecord.load("examples/game.json")))   # doctest: +SKIP

Test hooks in the markup: every card has `data-card="HA"`, every played card in the trick list
also `data-loss`, every trick `data-trick="1".."8"`, the chart is `<svg data-chart=...>`.
"""
from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING, Dict, Iterable, Optional, Sequence

from ..model.cards import Card, Seat, Suit, Team
from ..model.deal import Deal
from ..model.rules import Rules

if TYPE_CHECKING:   # pragma: no cover
    from ..analysis import BidAnalysis, DDTable, PlayAnalysis
    from ..engine.search import SolveResult

RED_SUITS = (Suit.H, Suit.D)
# Hands are shown in this suit order, as in the deal notation.
SHOW_SUITS = (Suit.S, Suit.H, Suit.D, Suit.C)

CSS = """
.kj{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d232a;line-height:1.35}
.kj .card{display:inline-block;min-width:2.2em;padding:2px 3px;margin:1px;border:1px solid #b9c0c7;
 border-radius:5px;background:#fff;text-align:center;font-weight:600;white-space:nowrap}
.kj .red{color:#c62828}.kj .black{color:#1d232a}
.kj .gone{opacity:.25}
.kj .hand{margin:2px 0}.kj .seat{font-weight:700;margin-right:4px}
.kj .compass{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:6px;align-items:center}
.kj .compass .N{grid-column:2;grid-row:1}.kj .compass .W{grid-column:1;grid-row:2}
.kj .compass .E{grid-column:3;grid-row:2}.kj .compass .S{grid-column:2;grid-row:3}
.kj .compass .middle{grid-column:2;grid-row:2;text-align:center;min-height:3em}
.kj .compass .middle:empty{display:none}
.kj table.grid{border-collapse:collapse}.kj table.grid td,.kj table.grid th{padding:3px 7px;
 text-align:right;border-bottom:1px solid #e3e6e8}
.kj table.grid td.here{outline:2px solid #1565c0}
.kj .tricks{display:grid;grid-template-columns:repeat(auto-fill,minmax(160px,1fr));gap:6px}
.kj .trick{border:1px solid #e3e6e8;border-radius:6px;padding:4px}
.kj .loss{box-shadow:0 0 0 2px #c62828 inset}
.kj .best{box-shadow:0 0 0 2px #2e7d32 inset}
.kj .value{display:block;font-size:.75em;font-weight:400;color:#455a64}
.kj svg{width:100%;height:auto;max-width:720px}
.kj .legend span{margin-right:12px;display:inline-block}
@media (max-width:560px){.kj .compass{grid-template-columns:repeat(2,minmax(0,1fr))}
 .kj .compass .N,.kj .compass .S,.kj .compass .middle{grid-column:1 / span 2}
 .kj .compass .N{grid-row:1}.kj .compass .W{grid-column:1;grid-row:2}
 .kj .compass .E{grid-column:2;grid-row:2}.kj .compass .middle{grid-row:3}
 .kj .compass .S{grid-row:4}}
"""

PAGE_CSS = """
body{margin:0;background:#eef1f3}
main.kj{max-width:980px;margin:0 auto;padding:10px;overflow-wrap:anywhere}
.kj section{background:#fff;border-radius:8px;padding:10px 12px;margin:10px 0;
 box-shadow:0 1px 2px rgba(0,0,0,.08)}
.kj h1{font-size:1.3em;margin:.3em 0}.kj h2{font-size:1.05em;margin:.2em 0 .5em}
.kj button{font-size:1em;padding:6px 14px;margin-right:6px;border-radius:6px;border:1px solid #90a4ae;
 background:#f5f7f8;cursor:pointer}
.kj .controls{display:flex;flex-wrap:wrap;align-items:center;gap:6px;margin-bottom:8px}
"""


def esc(text: object) -> str:
    return html.escape(str(text))


def card_html(card: Card, attrs: str = "", classes: str = "", value: Optional[int] = None) -> str:
    """One card, coloured by suit, with `data-card`; `value` is printed under it."""
    names = " ".join(n for n in ("card", "red" if card.suit in RED_SUITS else "black", classes) if n)
    shown = f'<span class="value">{value:+d}</span>' if value is not None else ""
    return f'<span class="{names}" data-card="{card}"{attrs}>{esc(card.to_str(symbols=True))}{shown}</span>'


def cards_html(cards: Iterable[Card]) -> str:
    return "".join(card_html(c) for c in cards)


def hand_html(seat: Seat, cards: Sequence[Card]) -> str:
    by_suit = [c for suit in SHOW_SUITS for c in sorted(cards, key=lambda c: -c.rank) if c.suit == suit]
    return f'<div class="hand {seat}"><span class="seat">{seat}</span>{cards_html(by_suit)}</div>'


def deal_html(deal: Deal, middle: str = "") -> str:
    """The four hands around the table: N on top, S below, W left, E right."""
    hands = "".join(hand_html(seat, deal[seat]) for seat in Seat)
    return f'<div class="compass">{hands}<div class="middle">{middle}</div></div>'


def suit_html(suit: Suit) -> str:
    color = "red" if suit in RED_SUITS else "black"
    return f'<span class="{color}">{suit.symbol}</span>'


def rules_in_words(rules: Rules) -> str:
    """The rule options as a player would say them."""
    duty = ("no duty to trump over a partner who is winning (Amsterdam)"
            if rules.trump_duty == "amsterdam" else "trumping even over partner (Rotterdam)")
    under = {"forbidden": "undertrumping only with nothing else", "must": "undertrumping required",
             "free": "undertrumping free"}[rules.undertrump]
    roem = {"table": "roem in the tricks", "hand": "roem in hand", "none": "no roem"}[rules.roem]
    stuk = {"trick": "stuk in one trick", "hand": "stuk for the seat dealt it",
            "none": "no stuk"}[rules.stuk] if rules.roem != "none" else ""
    pit = {"any": f"pit {rules.pit_bonus} for either team",
           "playing": f"pit {rules.pit_bonus} for the playing team only", "none": "no pit"}[rules.pit]
    nat = {"majority": "nat unless strictly ahead", "82": "nat below 82 card points",
           "none": "no nat"}[rules.nat]
    parts = [duty, under, roem, stuk, pit, nat]
    if rules.double_suits:
        parts.append("double " + " ".join(s.symbol for s in sorted(rules.double_suits)))
    if rules.multiplier > 1:
        parts.append(f"kraken ×{rules.multiplier}")
    if rules.zero_bonus:
        parts.append(f"zero bonus {rules.zero_bonus}")
    return "; ".join(p for p in parts if p) + "."


def _style() -> str:
    return f"<style>{CSS}</style>"


def piece(body: str) -> str:
    """A fragment for Jupyter: the shared style and a wrapper that scopes it."""
    return f'{_style()}<div class="kj">{body}</div>'


# -- the pieces of a result ----------------------------------------------------------------------

def table_html(table: "DDTable", team: Team, here: Optional[tuple] = None) -> str:
    """Points for `team` by trump (rows) and leader (columns); * marks a makeable cell."""
    head = "".join(f"<th>{s}</th>" for s in Seat)
    rows = []
    for suit in Suit:
        cells = []
        for seat in Seat:
            mark = "*" if table.makeable(suit, seat, team) else ""
            cls = ' class="here"' if here == (suit, seat) else ""
            cells.append(f"<td{cls}>{table.value(suit, seat, team):+d}{mark}</td>")
        rows.append(f"<tr><th>{suit_html(suit)} {suit}</th>{''.join(cells)}</tr>")
    return (f'<table class="grid" data-table="dd"><tr><th>trump \\ leader</th>{head}</tr>'
            f'{"".join(rows)}</table><div>points for {team}; * {team} makes it</div>')


def bid_check_html(analysis: "PlayAnalysis", table: "DDTable") -> str:
    r = analysis.record
    chosen = table.value(r.trump, r.leader, r.playing)
    best = max(Suit, key=lambda s: (table.value(s, r.leader, r.playing), -s))
    text = (f"{r.playing} chose {suit_html(r.trump)} with {r.leader} leading: "
            f"{'makeable' if table.makeable(r.trump, r.leader, r.playing) else 'not makeable'} "
            f"({chosen:+d}).")
    if best != r.trump and table.value(best, r.leader, r.playing) > chosen:
        value = table.value(best, r.leader, r.playing)
        text += (f" Best was {suit_html(best)}: {value:+d}, "
                 f"{'makeable' if table.makeable(best, r.leader, r.playing) else 'not makeable'}.")
    else:
        text += " That was the best trump."
    return f'<p data-bid-check="1">{text}</p>'


def tricks_html(analysis: "PlayAnalysis") -> str:
    """Every trick of the recorded play: its cards with their losses, winner, points, roem."""
    game = _replayed(analysis)
    steps = {s.number: s for s in analysis.steps}
    parts = []
    for trick in game.tricks:
        cards = []
        for i, card in enumerate(trick.cards):
            step = steps[(trick.number - 1) * 4 + i + 1]
            cls = "loss" if step.loss else ""
            title = f' title="{step.seat}: {card} lost {step.loss}"' if step.loss else ""
            cards.append(card_html(card, f' data-loss="{step.loss}" data-seat="{step.seat}"{title}', cls))
        roem = f", roem {trick.roem}" if trick.roem else ""
        parts.append(f'<div class="trick" data-trick="{trick.number}"><div>trick {trick.number}: '
                     f'{trick.leader} leads</div><div>{"".join(cards)}</div><div>won by '
                     f'{trick.winner} ({trick.winner.team}), {trick.points} points{roem}</div></div>')
    return f'<div class="tricks">{"".join(parts)}</div>'


def chart_svg(analysis: "PlayAnalysis") -> str:
    """The double-dummy value after every card, and the points actually taken so far."""
    r = analysis.record
    dd = [analysis.start_value] + [s.value_after for s in analysis.steps]
    game = r.game()
    actual = [0]
    for step in analysis.steps:
        game.play(step.card)
        ours, theirs = game.taken(r.playing), game.taken(r.playing.other)
        actual.append(ours[0] + ours[1] - theirs[0] - theirs[1])
    low, high = min(dd + actual + [0]), max(dd + actual + [0])
    span = max(high - low, 1)
    width, height, left, top, bottom = 640, 240, 44, 12, 28
    plot_h = height - top - bottom

    def x(i):
        return left + (width - left - 10) * i / 32

    def y(v):
        return top + plot_h * (high - v) / span

    def path(values):
        return " ".join(f"{'M' if i == 0 else 'L'}{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))

    grid = [f'<line x1="{left}" x2="{width - 10}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#90a4ae" '
            f'stroke-dasharray="4 3"/>']
    for t in range(1, 9):
        grid.append(f'<line x1="{x(4 * t):.1f}" x2="{x(4 * t):.1f}" y1="{top}" y2="{height - bottom}" '
                    f'stroke="#eceff1"/><text x="{x(4 * t - 2):.1f}" y="{height - 10}" '
                    f'font-size="11" text-anchor="middle" fill="#607d8b">{t}</text>')
    for v in (low, high):
        grid.append(f'<text x="{left - 4}" y="{y(v) + 4:.1f}" font-size="11" text-anchor="end" '
                    f'fill="#607d8b">{v:+d}</text>')
    marks = [f'<circle cx="{x(s.number):.1f}" cy="{y(s.value_after):.1f}" r="{3 + min(s.loss, 60) / 12:.1f}" '
             f'fill="#c62828" data-loss="{s.loss}"><title>card {s.number}: {s.seat} {s.card} lost '
             f'{s.loss}</title></circle>' for s in analysis.steps if s.loss]
    legend = (f'<div class="legend"><span style="color:#1565c0">━ double-dummy value for '
              f'{r.playing}</span><span style="color:#ef6c00">━ points {r.playing} took so far, '
              f'less the other team\'s</span><span style="color:#c62828">● a card that lost '
              f'points</span></div>')
    return (f'<svg data-chart="value" viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="double-dummy value after every card">{"".join(grid)}'
            f'<path d="{path(actual)}" fill="none" stroke="#ef6c00" stroke-width="2"/>'
            f'<path d="{path(dd)}" fill="none" stroke="#1565c0" stroke-width="2.5"/>'
            f'{"".join(marks)}</svg>{legend}')


def result_html(analysis: "PlayAnalysis", dd_score: Optional[int] = None) -> str:
    r, a = analysis.record, analysis.actual
    playing, defenders = r.playing.name, r.playing.other.name
    lines = [f"Totals: {playing} {a.totals[playing]}, {defenders} {a.totals[defenders]}."]
    if a.scores is not None:
        verdict = "revoke" if analysis.illegal else ("made" if a.made else "nat")
        lines.append(f"Score: {playing} {a.scores[playing]}, {defenders} {a.scores[defenders]} "
                     f"({verdict}).")
    else:
        lines.append(f"Unfinished after {len(analysis.steps)} cards.")
    tricks = _tricks_won(analysis)
    for team, won in tricks.items():
        if won == 8:
            lines.append(f"{team} took all 8 tricks (pit).")
    lines.append(f"Double dummy: {analysis.start_value:+d} points for {playing}, "
                 f"{'makeable' if analysis.makeable else 'not makeable'}"
                 + (f"; score {dd_score:+d}." if dd_score is not None else "."))
    if analysis.illegal:
        lines.append(f"Illegal card (verzaken): {esc(analysis.illegal.message)}")
    lost = analysis.losses()
    lines.append("Points given away: " + ", ".join(f"{t} {v}" for t, v in lost.items()) + ".")
    return "".join(f"<p>{line}</p>" for line in lines)


def _replayed(analysis: "PlayAnalysis"):
    """The round after the analysed cards (up to any illegal one)."""
    game = analysis.record.game()
    game.replay(step.card for step in analysis.steps)
    return game


def _tricks_won(analysis: "PlayAnalysis") -> Dict[str, int]:
    return {t.name: n for t, n in _replayed(analysis).tricks_won().items()}


# -- the page ---------------------------------------------------------------------------------------

REPLAY_JS = """
(function(){
const D=JSON.parse(document.getElementById('report-data').textContent);
const SYM={C:'\\u2663',D:'\\u2666',H:'\\u2665',S:'\\u2660'};
const SEATS=['N','E','S','W'];
let k=0;
function card(code,cls,value){
  const red=(code[0]==='H'||code[0]==='D')?'red':'black';
  const v=(value===undefined)?'':'<span class="value">'+(value>0?'+':'')+value+'</span>';
  return '<span class="card '+red+' '+(cls||'')+'" data-card="'+code+'">'+SYM[code[0]]+code[1]+v+'</span>';
}
function show(){
  const played=new Set(D.played.slice(0,k));
  const step=k<D.steps.length?D.steps[k]:null;
  for(const seat of SEATS){
    const el=document.querySelector('#replay .hand.'+seat);
    let out='<span class="seat">'+seat+(step&&step.seat===seat?' ▶':'')+'</span>';
    for(const code of D.hands[seat]){
      if(played.has(code)) continue;
      if(step&&step.seat===seat&&code in step.values){
        const cls=code===step.card?(step.loss?'loss':'best'):'';
        out+=card(code,cls,step.values[code]);
      }else out+=card(code,'');
    }
    el.innerHTML=out;
  }
  const start=k-(k%4);
  const trick=D.played.slice(start,k).map(c=>card(c,'')).join('');
  let note;
  if(step){note='card '+(k+1)+' of '+D.played.length+': '+step.seat+' to play (values for '+step.team+'); played '+
     card(step.card,step.loss?'loss':'best')+(step.loss?' lost '+step.loss:' optimal');}
  else note='end of the recorded play';
  document.querySelector('#replay .middle').innerHTML='<div>'+trick+'</div>';
  document.getElementById('step-note').innerHTML=note;
  document.getElementById('step-count').textContent=k+' / '+D.played.length;
}
document.getElementById('prev').onclick=function(){if(k>0){k--;show();}};
document.getElementById('next').onclick=function(){if(k<D.played.length){k++;show();}};
document.addEventListener('keydown',function(e){
  if(e.key==='ArrowRight')document.getElementById('next').click();
  if(e.key==='ArrowLeft')document.getElementById('prev').click();
});
show();
})();
"""


def replay_data(analysis: "PlayAnalysis") -> dict:
    r = analysis.record
    steps = []
    for s in analysis.steps:
        sign = 1 if s.seat.team == r.playing else -1
        steps.append({"seat": s.seat.name, "team": s.seat.team.name, "card": str(s.card),
                      "loss": s.loss, "values": {str(c): sign * v for c, v in s.values.items()}})
    return {"hands": {seat.name: [str(c) for c in r.deal[seat]] for seat in Seat},
            "played": [str(s.card) for s in analysis.steps], "steps": steps}


def render(analysis: "PlayAnalysis", table: Optional["DDTable"] = None,
           dd_score: Optional[int] = None) -> str:
    """The whole report of an analysed game as one self-contained HTML page.

    The DD table and the double-dummy score are solved here when not given."""
    from ..analysis import solve_table
    from ..engine.search import Solver
    r = analysis.record
    if table is None:
        table = solve_table(r.deal, r.rules)
    if dd_score is None:
        dd_score = Solver(r.rules).value(r.game(), "score")
    dealer = f", dealer {r.dealer}" if r.dealer is not None else ""
    data = json.dumps(replay_data(analysis)).replace("</", "<\\/")
    title = f"{r.playing} plays {r.trump.symbol} — klaverjas-solver report"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)}</title><style>{CSS}{PAGE_CSS}</style></head>
<body><main class="kj">
<section><h1>{r.playing} plays {suit_html(r.trump)} ({r.trump}), {r.leader} leads{dealer}</h1>
<p>{esc(rules_in_words(r.rules))}</p>{deal_html(r.deal)}</section>
<section id="replay-section"><h2>Replay</h2>
<div class="controls"><button id="prev" type="button">◀ previous</button>
<button id="next" type="button">next ▶</button><span id="step-count"></span></div>
<div id="step-note"></div>
<div id="replay" class="compass">{''.join(f'<div class="hand {s}"></div>' for s in Seat)}
<div class="middle"></div></div>
<p>Use the arrow keys too. Under each legal card: its double-dummy value for the side to
play; the card played is green when optimal, red when it lost points.</p></section>
<section><h2>The double-dummy value, card by card</h2>{chart_svg(analysis)}</section>
<section><h2>Tricks</h2>{tricks_html(analysis)}</section>
<section><h2>Result</h2>{result_html(analysis, dd_score)}</section>
<section><h2>Double-dummy table and the bid</h2>{bid_check_html(analysis, table)}
{table_html(table, r.playing, (r.trump, r.leader))}</section>
</main>
<script type="application/json" id="report-data">{data}</script>
<script>{REPLAY_JS}</script>
</body></html>
"""


# -- Jupyter: one piece per result ---------------------------------------------------------------------

def solve_result_html(result: "SolveResult") -> str:
    line = [result.line[i:i + 4] for i in range(0, len(result.line), 4)]
    value = result.value if isinstance(result.value, bool) else f"{result.value:+d}"
    return piece(f"<div><b>{result.objective} = {value}</b> (NS {result.totals['NS']}, EW "
                 f"{result.totals['EW']}; {result.nodes} nodes)</div><div>line: "
                 + " &nbsp; ".join(cards_html(t) for t in line) + "</div>")


def play_analysis_html(analysis: "PlayAnalysis") -> str:
    return piece(f"<div>{esc(analysis.summary()).replace(chr(10), '<br>')}</div>"
                 f"{chart_svg(analysis)}{tricks_html(analysis)}")


def bid_analysis_html(bids: "BidAnalysis") -> str:
    head = "".join(f"<th>{suit_html(s)} {s}</th>" for s in Suit)
    rows = []
    for seat in Seat:
        cells = []
        for suit in Suit:
            o = bids.option(seat, suit)
            style = "" if o.allowed else ' style="color:#90a4ae"'
            cells.append(f"<td{style}>{o.value:+d}{'*' if o.makeable else ''}</td>")
        rows.append(f"<tr><th>{seat}</th>{''.join(cells)}</tr>")
    verdict = f"<p>{esc(bids.verdict())}</p>" if bids.bid is not None else ""
    return piece(f"<div>{esc(bids.procedure)}, dealer {bids.dealer}: points for the chooser's "
                 f"team; * makeable; grey: not open to that seat</div>"
                 f'<table class="grid"><tr><th>seat</th>{head}</tr>{"".join(rows)}</table>{verdict}')
