"""The board's web application: `create_app()` gives the FastAPI app that serves the page
(static files from the package) and the JSON API behind it (see `solver.web` for the routes).

Errors are JSON, `{"error": message}`: the package's errors (SolverError) with their own
message as 400, a request that does not fit its schema as 422, a body over the limit as 413;
never a traceback.
"""
from __future__ import annotations

import asyncio
import json
import logging
import math
import threading
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any, AsyncIterator, Awaitable, Callable, Dict, MutableMapping, Optional

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from ..analysis import ON_ALL_PASS, PROCEDURES, analyse_bidding, analyse_play, solve_table
from ..analysis.verdicts import MISTAKE_LINE, paired_loss, sd_verdict, t_quantile
from ..analysis.view import ViewAnalysis
from ..errors import SolverError
from ..html import render
from ..model.cards import NOTATIONS, Seat
from ..model.deal import Deal
from ..model.record import GameRecord
from ..model.rules import RULE_PRESETS, Rules
from .engine import Engine, Stopped
from .positions import (MOST_TEXT, BidIn, CardIn, DealIn, ExportIn, PositionIn, RecordIn,
                        TableIn, ViewIn, card_values, perfect_line, read_deal, read_game,
                        read_position, read_records, read_rules, record_of, round_of, state,
                        why)

log = logging.getLogger("solver.web")

# The largest request body: a record file of many rounds, in JSON.
MOST_BODY = MOST_TEXT + (64 << 10)
# What the page may load and run: its own files only; no inline script, no other origin.
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; "
                           "img-src 'self' data:; connect-src 'self'; object-src 'none'; "
                           "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
# A card loses "10 points or more" in a world when the best card of that world is worth that
# much more; in ledig, whose values are tricks, one trick.
BIG_LOSS = {"points": 10, "tricks": 1}


def static_folder() -> str:
    """The folder of the page's files, inside the installed package."""
    return str(resources.files("solver.web") / "static")


class BodyTooLarge(Exception):
    """A request body over MOST_BODY bytes."""


class Guard:
    """ASGI middleware: every answer gets the security headers, and a request body over
    `most` bytes is refused (413) before it is read into memory."""

    def __init__(self, app: Any, most: int = MOST_BODY) -> None:
        self.app = app
        self.most = most

    async def __call__(self, scope: MutableMapping[str, Any], receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
                            (b"x-content-type-options", b"nosniff"),
                            (b"referrer-policy", b"no-referrer"),
                            (b"x-frame-options", b"DENY")]
                message["headers"] = headers
            await send(message)

        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.most):
            await _too_large(self.most)(scope, receive, send_with_headers)
            return
        read = 0

        async def limited() -> Any:
            nonlocal read
            message = await receive()
            if message["type"] == "http.request":
                read += len(message.get("body", b""))
                if read > self.most:
                    raise BodyTooLarge()
            return message

        try:
            await self.app(scope, limited, send_with_headers)
        except BodyTooLarge:
            await _too_large(self.most)(scope, receive, send_with_headers)


def _too_large(most: int) -> JSONResponse:
    return JSONResponse({"error": f"the request body is larger than {most >> 10} KB, which no "
                                  f"deal, record or position is"}, status_code=413)


def _validation_message(err: RequestValidationError) -> str:
    """The first problem of a request that does not fit its schema, in one line."""
    problems = err.errors()
    if not problems:
        return "the request does not fit the API (see /openapi.json)"
    first = problems[0]
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
    message = str(first.get("msg", "is not valid"))
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return f"{where or 'the request body'}: {message}{more}"


def view_rows(view: ViewAnalysis, dd: Dict[str, Any], unit: str) -> Dict[str, Dict[str, Any]]:
    """Each legal card over the worlds so far, from the view of the player to move: the mean
    value and its 95% interval, the share of worlds where it is best, the chance of losing
    BIG_LOSS or more against the best card of the world, the single-dummy loss and the
    verdict (against the card's double-dummy loss in the true deal)."""
    n = len(view.worlds)
    per_world = view.values
    tops = [max(values[w] for values in per_world.values()) for w in range(n)]
    spread = t_quantile(0.975, n - 1) if n > 1 else math.inf
    best_dd = max(dd["values"].values())
    rows: Dict[str, Dict[str, Any]] = {}
    for card, stats in view.cards.items():
        loss = paired_loss(per_world, card)
        half = spread * stats.stderr if n > 1 else None
        rows[str(card)] = {
            "mean": stats.mean,
            "low": None if half is None else stats.mean - half,
            "high": None if half is None else stats.mean + half,
            "best_share": stats.optimal,
            "big_loss": sum(top - v >= BIG_LOSS[unit] for top, v in zip(tops, per_world[card])) / n,
            "sd_loss": loss.loss,
            "verdict": sd_verdict(best_dd - dd["values"][str(card)], loss.loss, loss.low,
                                  loss.high, MISTAKE_LINE[unit])}
    return rows


def create_app(engine: Optional[Engine] = None) -> FastAPI:
    """The board's app; `engine` (default: a new `Engine`) runs its searches."""
    engine = engine or Engine()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        engine.close()

    app = FastAPI(lifespan=lifespan, title="klaverjas board", version=__version__, docs_url=None, redoc_url=None,
                  description="The JSON API behind the analysis board (`klaverjas serve`). "
                              "Cards are English letters (SA, HT); errors are "
                              '{"error": message}.')
    app.state.engine = engine
    app.add_middleware(Guard)

    @app.exception_handler(SolverError)
    async def solver_error(request: Request, err: SolverError) -> JSONResponse:
        return JSONResponse({"error": str(err)}, status_code=400)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, err: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": _validation_message(err)}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, err: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(err.detail)}, status_code=err.status_code)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, err: Exception) -> JSONResponse:
        log.exception("unexpected error in %s", request.url.path)
        return JSONResponse({"error": f"internal error ({type(err).__name__}); the server's "
                                      f"log has the details"}, status_code=500)

    app.mount("/static", StaticFiles(directory=static_folder()), name="static")

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(f"{static_folder()}/index.html", media_type="text/html")

    @app.get("/api/rules", summary="The rules options, presets and choices the page offers")
    def rules_options() -> Dict[str, Any]:
        schema = GameRecord.json_schema()["$defs"]["rules"]
        options = next(s for s in schema["anyOf"] if s.get("type") == "object")["properties"]
        return {"options": options, "defaults": Rules().to_dict(),
                "presets": {name: make().to_dict() for name, make in RULE_PRESETS.items()},
                "notations": list(NOTATIONS), "procedures": list(PROCEDURES),
                "on_all_pass": list(ON_ALL_PASS), "version": __version__}

    @app.post("/api/deal", summary="Read a pasted deal, or deal one by seed")
    def deal(body: DealIn) -> Dict[str, Any]:
        if (body.text is None) == (body.seed is None):
            raise SolverError("give the deal's text or a seed, one of them")
        parsed = Deal.random(body.seed) if body.seed is not None else \
            read_deal(body.text or "", body.notation)
        return {"deal": parsed.to_pbn(),
                "hands": {seat.name: [str(c) for c in parsed[seat]] for seat in Seat}}

    @app.post("/api/record", summary="Read a record file (JSON, or JSON Lines of many rounds)")
    async def record(body: RecordIn) -> Dict[str, Any]:
        # A file of many rounds takes a while to check: off the event loop.
        return {"rounds": await engine.long(lambda: [round_of(r) for r in read_records(body.text)])}

    @app.post("/api/position", summary="The board at a position: hands, trick, card values, "
                                       "chart, tallies, result")
    async def position(body: PositionIn) -> Dict[str, Any]:
        return await engine.click(lambda: state(engine, read_game(body), body.at))

    @app.post("/api/line", summary="Perfect play from a position to the end of the round")
    async def line(body: PositionIn) -> Dict[str, Any]:
        return {"line": await engine.click(lambda: perfect_line(engine, read_position(body)))}

    @app.post("/api/why", summary="Why a card lost: the perfect continuations after it and "
                                  "after the best card, trick by trick")
    async def why_card(body: CardIn) -> Dict[str, Any]:
        return await engine.click(lambda: why(engine, read_position(body), body.card))

    @app.post("/api/table", summary="The double-dummy table of every trump and leader")
    async def table(body: TableIn) -> Dict[str, Any]:
        deal, rules = read_deal(body.deal), read_rules(body.rules)
        return (await engine.long(lambda: solve_table(deal, rules, solver=engine.solver()))).to_dict()

    @app.post("/api/bid", summary="The bid check under a bidding procedure")
    async def bid(body: BidIn) -> Dict[str, Any]:
        deal, rules = read_deal(body.deal), read_rules(body.rules)

        def check() -> Dict[str, Any]:
            analysis = analyse_bidding(deal, body.dealer, rules, body.procedure, body.turned,
                                       body.on_all_pass, body.chooser_leads, body.bid,
                                       solver=engine.solver(), worlds=body.worlds,
                                       seed=body.seed, workers=1)
            return {**analysis.to_dict(), "who_may_choose": analysis.who_may_choose(),
                    "rounds": [{"name": r.name, "title": r.title,
                                "trumps": [t.name for t in r.trumps]} for r in analysis.rounds()]}
        return await engine.long(check)

    @app.post("/api/view", summary="Single dummy for the player to move, streamed as JSON "
                                   "Lines, one line per batch of worlds")
    async def view(body: ViewIn) -> StreamingResponse:
        game = read_position(body)
        if game.is_over:
            raise SolverError("the round is over: no card is left to judge")
        dd = await engine.click(card_values, engine, game)
        unit = "tricks" if game.rules.contract == "ledig" else "points"
        return StreamingResponse(_view_lines(engine, game, body, dd, unit),
                                 media_type="application/x-ndjson")

    @app.post("/api/export/record", summary="The explored line as a game record (JSON)")
    async def export_record(body: ExportIn) -> Response:
        kept = await engine.click(record_of, body)
        text = json.dumps(kept.to_dict(), indent=2)
        return Response(text, media_type="application/json",
                        headers={"content-disposition": 'attachment; filename="round.json"'})

    @app.post("/api/export/report", summary="The explored line as the static report page")
    async def export_report(body: ExportIn) -> Response:
        def page() -> str:
            kept = record_of(body)
            solver = engine.solver()
            return render(analyse_play(kept, solver=solver),
                          solve_table(kept.deal, kept.rules, solver=solver),
                          solver.value(kept.game(), "score"))
        return Response(await engine.long(page), media_type="text/html",
                        headers={"content-disposition": 'attachment; filename="report.html"'})

    @app.get("/api/status", summary="The engine's single-dummy jobs and cached positions")
    def status() -> Dict[str, int]:
        return engine.counters()

    return app


async def _view_lines(engine: Engine, game: Any, body: ViewIn, dd: Dict[str, Any],
                      unit: str) -> AsyncIterator[str]:
    """The single-dummy job's batches as JSON Lines; the job stops at its next batch once the
    reader goes away (the stream is closed or cancelled)."""
    loop = asyncio.get_running_loop()
    queue: "asyncio.Queue[Optional[Dict[str, Any]]]" = asyncio.Queue()
    stop = threading.Event()
    worlds = body.worlds

    def report(view: ViewAnalysis, last: bool) -> None:
        line = {"worlds": len(view.worlds), "of": worlds, "last": last,
                "seat": view.seat.name, "cards": view_rows(view, dd, unit)}
        loop.call_soon_threadsafe(queue.put_nowait, line)

    def job() -> bool:
        try:
            engine.single_dummy(game, worlds, min(body.batch, worlds), body.seconds, body.seed,
                                stop, report)
            return True
        except Stopped:
            return False
        except SolverError as err:
            loop.call_soon_threadsafe(queue.put_nowait, {"error": str(err)})
            return False
        finally:
            loop.call_soon_threadsafe(queue.put_nowait, None)

    running = asyncio.wrap_future(engine.start_job(job))
    try:
        while True:
            item = await queue.get()
            if item is None:
                break
            yield json.dumps(item) + "\n"
            # Let the loop run between lines: a reader that left is then seen (the server's
            # connection_lost) before the next line is written, rather than after several
            # writes to a closed socket, each logged by asyncio.
            await asyncio.sleep(0)
        await running
    finally:
        stop.set()
