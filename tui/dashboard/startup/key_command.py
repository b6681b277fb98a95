"""Running a context's `api_key_command` (`pass show wds/prod`) for its key, within bounds.

A key is one short line, so the command is read for that line and no more:

* at most `OUTPUT_MAX_BYTES` of its output are ever held (a command printing
  400 MB once took `wds-tui check` to 5.5 GB and into a 400 MB header), and a
  first line longer than `KEY_MAX_BYTES` is refused, since no key is that long;
* the key is taken as soon as its line is complete: a command that leaves a
  child holding its output (`...; sleep 60 &`) no longer makes the read wait
  for an end of file that comes when the child ends;
* the command runs in a session of its own (no terminal, no input), and
  whatever it started there is ended afterwards, so nothing of it is left
  running. After its line the leader has `EXIT_GRACE_SECONDS` to end by
  itself (and to say it failed: `echo "no such entry"; exit 1` gives no key),
  then gets SIGTERM; what is left of the group then gets SIGKILL;
* a command that prints no key within `COMMAND_SECONDS`, or ends in failure
  before its line, is reported with its exit status and the last line of its
  stderr (of which only the last `STDERR_TAIL_BYTES` are kept).

POSIX only (sessions, process groups, `waitid`), as the rest of the app.
"""

from __future__ import annotations

import os
import selectors
import shlex
import signal
import subprocess
import time

COMMAND_SECONDS = 15.0
OUTPUT_MAX_BYTES = 64 * 1024
# Longer than any key: a JWT with many claims is 2-4 KB, and 8 KiB is what common
# servers accept for a whole header line (nginx's buffers, Apache's LimitRequestFieldSize).
KEY_MAX_BYTES = 8 * 1024
STDERR_TAIL_BYTES = 4 * 1024
EXIT_GRACE_SECONDS = 1.0
_TICK_SECONDS = 0.05  # how often the leader's end is looked for while its output is awaited
_SHOWN_CHARS = 200
NOTHING_ON_STDERR = "(nothing on stderr)"


class KeyCommandError(Exception):
    """The key command gave no key; the message says why (never quoting its output)."""


def key_from_command(command: str, context: str) -> str:
    """Run a context's `api_key_command` and return its first line, the key."""
    what = f"api_key_command of context {context!r}"
    try:
        process = subprocess.Popen(
            command,
            shell=True,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # its own process group, to end as a whole; no terminal to ask on
        )
    except OSError as exc:
        raise KeyCommandError(f"The {what} could not run: {exc.strerror or exc}") from None
    output = _Output(process)
    try:
        line = _read_line(process, output, what, command)
        # a line, then a failure (`echo "no such entry"; exit 1`) is the failure: the leader
        # usually ends at once after its line, and is given a moment to say how
        if _ended_within(process.pid, EXIT_GRACE_SECONDS):
            _fail_if_failed(process.pid, output, what)
        return _decoded(line, what)
    finally:
        output.close()
        _end(process)


class _Output:
    """The command's stdout (up to `OUTPUT_MAX_BYTES`) and the tail of its stderr, read as they come."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdout is not None and process.stderr is not None
        self.out = bytearray()
        self.err = bytearray()
        self.out_done = False  # end of file, or as much as is ever read
        self._selector = selectors.DefaultSelector()
        self._selector.register(process.stdout, selectors.EVENT_READ, "out")
        self._selector.register(process.stderr, selectors.EVENT_READ, "err")

    def pump(self, timeout: float) -> bool:
        """Read what arrives within `timeout` seconds (0: only what is there now); False if nothing did."""
        ready = self._selector.select(timeout) if self._selector.get_map() else []
        for key, _ in ready:
            fd = key.fileobj.fileno()  # type: ignore[union-attr]
            if key.data == "out":
                data = os.read(fd, OUTPUT_MAX_BYTES - len(self.out))
                self.out += data
                if not data or len(self.out) >= OUTPUT_MAX_BYTES:
                    self.out_done = True
                    self._selector.unregister(key.fileobj)
            else:
                data = os.read(fd, STDERR_TAIL_BYTES)
                if not data:
                    self._selector.unregister(key.fileobj)
                self.err = (self.err + data)[-STDERR_TAIL_BYTES:]
        return bool(ready)

    def drain(self) -> None:
        """Read all that is waiting in the pipes now (up to their ends, or the cap of stdout)."""
        while self.pump(0):
            pass

    def first_line(self, final: bool) -> bytes | None:
        """The first line that is not blank: None until it is complete (or `final`: its output ended)."""
        text = self.out.lstrip()
        end = text.find(b"\n")
        line = bytes(text if end < 0 else text[:end]).strip()
        if len(line) > KEY_MAX_BYTES:
            raise _TooLong
        if end < 0 and not final:
            return None
        return line or None

    def last_error_line(self) -> str:
        lines = self.err.decode("utf-8", errors="replace").strip().splitlines()
        return _shown(lines[-1]) if lines else NOTHING_ON_STDERR

    def close(self) -> None:
        self._selector.close()


class _TooLong(Exception):
    pass


def _read_line(process: subprocess.Popen[bytes], output: _Output, what: str, command: str) -> bytes:
    """The first line the command prints, as soon as it is complete; `KeyCommandError` when none comes."""
    deadline = time.monotonic() + COMMAND_SECONDS
    try:
        while True:
            status = _exit_status(process.pid)
            if status is not None:
                output.drain()  # what it printed before it ended may still be in the pipe
            line = output.first_line(final=output.out_done or status == 0)
            if line is not None:
                return line
            _fail_if_failed(process.pid, output, what)
            if output.out_done:
                # its output ended, and the leader with it, a moment later: say how it ended
                _ended_within(process.pid, EXIT_GRACE_SECONDS)
                _fail_if_failed(process.pid, output, what)
                raise KeyCommandError(f"The {what} printed nothing: {_program(command)} should print the key")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                said = output.last_error_line()
                raise KeyCommandError(
                    f"The {what} printed no key within {COMMAND_SECONDS:g} s"
                    + ("" if said == NOTHING_ON_STDERR else f"; its last words: {said}")
                )
            output.pump(min(remaining, _TICK_SECONDS))
    except _TooLong:
        raise KeyCommandError(
            f"The {what} printed a first line longer than {KEY_MAX_BYTES:,} bytes, which no API key is: "
            f"{_program(command)} should print the key alone"
        ) from None


def _fail_if_failed(pid: int, output: _Output, what: str) -> None:
    """`KeyCommandError` with its status and last words when the leader has ended in failure."""
    status = _exit_status(pid)
    if status is not None and status != 0:
        output.drain()
        raise KeyCommandError(f"The {what} failed ({_status_words(status)}): {output.last_error_line()}")


def _decoded(line: bytes, what: str) -> str:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        raise KeyCommandError(f"The {what} printed a first line that is not UTF-8 text") from None


def _exit_status(pid: int) -> int | None:
    """The leader's exit status once it has ended (negative: its signal), or None.

    Without reaping it: while its pid is not reaped it cannot be given to another
    process, so signalling its process group can reach only what it started.
    """
    try:
        ended = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return 0  # reaped by someone else (SIGCHLD ignored): ended, its status lost, as `subprocess` takes it
    if ended is None or ended.si_pid == 0:
        return None
    return ended.si_status if ended.si_code == os.CLD_EXITED else -ended.si_status


def _status_words(status: int) -> str:
    if status >= 0:
        return f"exit {status}"
    try:
        return f"killed by {signal.Signals(-status).name}"
    except ValueError:
        return f"killed by signal {-status}"


def _end(process: subprocess.Popen[bytes]) -> None:
    """End the command's whole process group, its leader reaped last (see the module doc).

    By now the leader has ended or had its moment to (`EXIT_GRACE_SECONDS`
    after its line), or is of no more use (no key in time, a line too long).
    """
    if _exit_status(process.pid) is None:
        _signal_group(process.pid, signal.SIGTERM)
        _ended_within(process.pid, EXIT_GRACE_SECONDS)
    _signal_group(process.pid, signal.SIGKILL)  # children still holding its output, or deaf to SIGTERM
    for pipe in (process.stdout, process.stderr):
        if pipe is not None:
            pipe.close()
    try:
        process.wait(EXIT_GRACE_SECONDS)
    except subprocess.TimeoutExpired:
        pass  # a leader no signal of ours reaches (setuid): left, rather than waited for ever


def _ended_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while _exit_status(pid) is None:
        if time.monotonic() >= deadline:
            return False
        time.sleep(_TICK_SECONDS / 5)
    return True


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        pass  # nothing of it is left
    except PermissionError:
        pass  # only a member that made itself another user's (setuid) is left: not ours to end


def _program(command: str) -> str:
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    return _shown(words[0]) if words else "it"


def _shown(text: str) -> str:
    """Text of the command's for a message: printable characters only, cut short."""
    flat = "".join(ch if ch.isprintable() else "?" for ch in text)
    return flat if len(flat) <= _SHOWN_CHARS else flat[: _SHOWN_CHARS - 1] + "…"
