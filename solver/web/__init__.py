"""The analysis board: `klaverjas serve` runs it on the user's machine (FastAPI on uvicorn,
`pip install "klaverjas-solver[web]"`). The page (static/: index.html, board.js, words.js,
board.css) presents; the server computes, through the analysis API.

The JSON API (the OpenAPI document is served at /openapi.json). Cards are the English
letters of the model ("SA", "HT"); a position is the round and the cards played:

    {"deal": "N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ", "trump": "S",
     "leader": "S", "playing": "EW", "rules": "amsterdam" | {options},
     "bidder": null, "dummy": null, "played": ["SK", "S9"]}

- GET  /api/rules: the rules options (the record schema's, with their defaults), presets,
  card notations, bidding procedures.
- POST /api/deal {"text": ..., "notation": "auto"|"en"|"nl"} or {"seed": n}:
  {"deal": PBN, "hands": {"N": [cards]...}}.
- POST /api/record {"text": JSON or JSON Lines}: {"rounds": [a position with the record's
  cards as "played", and "dealer", "players"]}.
- POST /api/position (a position): the board: "hands", "table" (the trick on the table),
  "tricks" (each with winner, points, roem, stuk), "to_move", "values" ({card: value for the
  side to move}), "best", "value" (for the playing team), "chart" (that value after each
  card so far), "tallies", "over", "result" ({"scores", "made"} once over), "unit".
- POST /api/line (a position): {"line": perfect play to the end}.
- POST /api/why (a position and "card"): the perfect continuations after the card and after
  the best card ("card", "best": each "line", "tricks", "counts"), "parts_at" (the first
  trick where they part), "moved" (card points, last trick, roem, stuk, pit, tricks).
- POST /api/view (a position, "worlds", "batch", "seconds", "seed"): single dummy for the
  player to move, streamed as JSON Lines, one per batch: {"worlds", "of", "last", "cards":
  {card: {"mean", "low", "high", "best_share", "big_loss", "sd_loss", "verdict"}}}. The job
  stops at its next batch when the reader goes away.
- POST /api/table {"deal", "rules"}: `DDTable.to_dict()` (ledig: `LedigTable.to_dict()`).
- POST /api/bid {"deal", "rules", "dealer", "procedure", "turned", "on_all_pass",
  "chooser_leads", "bid", "worlds", "seed"}: `BidAnalysis.to_dict()` with "who_may_choose"
  and "rounds".
- POST /api/export/record, /api/export/report (a position, "dealer", "players"): the
  explored line as a record (JSON) or as the static report page (HTML).
- GET  /api/status: the single-dummy jobs (running, started, stopped, finished) and the
  positions cached.

Errors are {"error": message}: the package's errors with their own message (400), a request
that does not fit (422), a body over 1 MB (413).
"""
from .app import create_app

__all__ = ["create_app"]
