"""`klaverjas serve`: the analysis board (solver.web) on uvicorn, on this machine unless told
otherwise."""
from __future__ import annotations

import ipaddress
import socket
import threading
import webbrowser
from typing import Any

from .parser import UsageError

LOOPBACK_NAMES = ("localhost",)


def is_loopback(host: str) -> bool:
    """Whether `host` is this machine's own address, which no other machine can reach."""
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def exposure_note(host: str, port: int) -> str:
    """What listening on a host other than loopback exposes, in words."""
    return (f"note: --host {host} lets every machine that can reach this one on port {port} "
            f"use the board: its pages, and the solver on this machine's cores (the board reads "
            f"and writes no files). Leave --host out to keep it to this machine.")


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to `host` and `port` (0: a free port), or a UsageError saying why not."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as err:
        raise UsageError(f"--host {host}: not an address of this machine ({err})") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        # Listening at once: a browser opened on the address printed waits for the server
        # instead of being refused while it starts.
        sock.listen(128)
    except OSError as err:
        sock.close()
        raise UsageError(f"cannot listen on {host} port {port}: {err.strerror or err}") from None
    return sock


def cmd_serve(args: Any) -> str:
    try:
        import uvicorn
        from ..web import create_app
    except ImportError as err:
        raise UsageError(f'klaverjas serve needs the web extra: pip install '
                         f'"klaverjas-solver[web]" ({err})') from None
    sock = listening_socket(args.host, args.port)
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{shown}:{port}/"
    print(f"klaverjas board on {url} (Ctrl-C stops it)", flush=True)
    if not is_loopback(args.host):
        print(exposure_note(args.host, port), flush=True)
    server = uvicorn.Server(uvicorn.Config(create_app(), log_level="warning"))
    if args.open:
        # Opened once the server has started, so that the first request finds it listening.
        def open_when_started() -> None:
            while not server.started and not server.should_exit:
                threading.Event().wait(0.05)
            if server.started:
                webbrowser.open(url)
        threading.Thread(target=open_when_started, daemon=True).start()
    server.run(sockets=[sock])
    return "klaverjas board stopped"
