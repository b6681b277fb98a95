"""In a real tmux (a server of its own, -L): the wrapped notification reaches the terminal outside only with allow-passthrough on.

The test is that terminal: tmux runs in a pseudo-terminal whose output is read
byte for byte, as the terminal around tmux would get it.
"""

from __future__ import annotations

import os
import pty
import select
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.monitor.notices import notice
from tui.monitor.delivery.terminal import notice_bytes, notice_ident

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

INSIDE_TMUX = {"TMUX": "/tmp/tmux-1000/default,1,0", "TERM": "tmux-256color"}


def outside_bytes(tmp_path: Path, sent: bytes, *, passthrough: bool) -> bytes:
    """What the terminal around tmux receives while a pane prints `sent` (tmux on a server named for this test)."""
    conf = tmp_path / f"tmux-{passthrough}.conf"
    conf.write_text(("set -g allow-passthrough on\n" if passthrough else "") + "set -g status off\n")
    # tmux passes a code through only to clients attached at that moment: under load the pane can print before
    # its client is there, so the script waits for one (the pane's TMUX variable reaches this server) first
    script = (
        "import subprocess, sys, time\n"
        "for _ in range(100):\n"
        "    if subprocess.run(['tmux', 'list-clients'], capture_output=True, text=True).stdout.strip(): break\n"
        "    time.sleep(0.1)\n"
        "time.sleep(0.3)\n"
        f"sys.stdout.buffer.write({sent!r}); sys.stdout.flush(); time.sleep(1.5)\n"
    )
    # the server's socket goes in a short directory of its own (a socket path has ~100 bytes at most)
    sockets = tempfile.mkdtemp(prefix="wds-tmux-")
    pid, fd = pty.fork()
    if pid == 0:  # the child becomes tmux; its session ends with the script, and the server with it
        os.environ.pop("TMUX", None)
        os.environ.update(TERM="xterm-256color", TMUX_TMPDIR=sockets)
        server = f"wds-delivery-{os.getpid()}"
        os.execvp("tmux", ["tmux", "-L", server, "-f", str(conf), "new-session", sys.executable, "-c", script])
    received = b""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the pty closes when tmux ends
                break
            if not chunk:
                break
            received += chunk
    os.waitpid(pid, 0)
    os.close(fd)
    shutil.rmtree(sockets, ignore_errors=True)
    return received


def test_the_wrapped_codes_come_out_of_tmux_unwrapped_with_allow_passthrough_on(tmp_path: Path) -> None:
    sent = notice_bytes(notice(), "osc777", INSIDE_TMUX) + notice_bytes(notice(), "osc99", INSIDE_TMUX)
    ident = notice_ident(notice())
    osc777 = b"\x1b]777;notify;3 scrapes failed;example.com: 503 within 10 min\x07"
    osc99 = (
        f"\x1b]99;i={ident}:u=1:d=0:p=title;3 scrapes failed\x1b\\"
        f"\x1b]99;i={ident}:u=1:d=1:p=body;example.com: 503 within 10 min\x1b\\"
    ).encode()
    passed = outside_bytes(tmp_path, sent, passthrough=True)
    assert osc777 in passed and osc99 in passed
    held = outside_bytes(tmp_path, sent, passthrough=False)
    assert osc777 not in held and b"]99;" not in held
