"""write_whole, the one writer of reports, shards and manifests: a link is followed, not
replaced; a device, a FIFO or the process's own output is written where it is."""
import os
import stat
from pathlib import Path

from solver.model import files
from solver.model.files import write_whole


def test_a_link_is_followed_and_stays_a_link(tmp_path: Path) -> None:
    real = tmp_path / "real.html"
    real.write_text("old")
    link = tmp_path / "link.html"
    link.symlink_to("real.html")
    write_whole(link, "new")
    assert link.is_symlink() and os.readlink(link) == "real.html"
    assert real.read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.html", "real.html"]


def test_a_link_through_a_link_to_a_missing_file_makes_that_file(tmp_path: Path) -> None:
    (tmp_path / "pages").mkdir()
    (tmp_path / "first").symlink_to("second")
    (tmp_path / "second").symlink_to(tmp_path / "pages" / "page.html")
    write_whole(tmp_path / "first", b"page")
    assert (tmp_path / "first").is_symlink() and (tmp_path / "second").is_symlink()
    assert (tmp_path / "pages" / "page.html").read_bytes() == b"page"


def test_a_fifo_is_written_where_it_is(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    # Its reader opened first, without waiting for a writer: the write does not wait either.
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_whole(fifo, [b"one ", b"two"])
        got = b"".join(iter(lambda: os.read(reader, 1 << 16), b""))
    finally:
        os.close(reader)
    assert got == b"one two"
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["pipe"]


def test_a_link_to_a_device_writes_to_the_device(tmp_path: Path) -> None:
    link = tmp_path / "null"
    link.symlink_to(os.devnull)
    write_whole(link, "nothing")
    assert link.is_symlink() and stat.S_ISCHR(os.stat(link).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["null"]


def test_a_file_that_is_not_regular_is_not_renamed_onto(tmp_path: Path, monkeypatch) -> None:
    # A character device, as os.stat says of it (no real device is touched).
    device = tmp_path / "device"
    device.write_bytes(b"")
    inode = os.stat(device).st_ino
    real_stat = os.stat

    def as_a_device(name, *args, **kwargs):
        result = real_stat(name, *args, **kwargs)
        if Path(name) == device:
            return os.stat_result((stat.S_IFCHR | 0o666,) + tuple(result)[1:])
        return result
    monkeypatch.setattr(files.os, "stat", as_a_device)
    write_whole(device, "data")
    monkeypatch.undo()
    assert os.stat(device).st_ino == inode and device.read_text() == "data"


def test_a_link_into_proc_writes_to_the_open_file(tmp_path: Path) -> None:
    # /dev/stdout is a link to /proc/self/fd/1: the output the process was given, kept, and
    # added to (a shell's >> keeps what is there).
    output = tmp_path / "output.txt"
    with open(output, "a") as opened:
        opened.write("before\n")
        opened.flush()
        stdout = tmp_path / "stdout"
        stdout.symlink_to(f"/proc/self/fd/{opened.fileno()}")
        write_whole(stdout, "page\n")
    assert stdout.is_symlink()
    assert output.read_text() == "before\npage\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["output.txt", "stdout"]
