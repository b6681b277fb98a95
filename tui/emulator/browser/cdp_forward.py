"""Inside a run's sandbox: the browser's DevTools address on the sandbox's own loopback.

    python -I -S cdp_forward.py SOCKET PORT -- COMMAND...

A run has a network namespace of its own (no interface but `lo`), so it cannot
reach the emulator's gateway on the host's loopback. The emulator instead
serves that one run's gateway on a unix socket, SOCKET, in a directory bound
into the sandbox; Playwright's `connect_over_cdp`, `agent-browser` and any
tool the code brings want a `ws://` URL, so this forwarder listens on
127.0.0.1:PORT of the sandbox and relays each connection to SOCKET, byte for
byte. SOCKET need not exist yet: a spare runner starts before its job, and
the emulator makes the socket when it hands the job over.

The forwarder binds PORT first, then starts COMMAND as its child (so the
address is ready before the runner looks for it, and a `wait` in the run's
shell code does not wait for the forwarder), relays until COMMAND exits, and
exits as COMMAND did. Standard library only: it runs before anything else.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading

_CHUNK = 256 * 1024


def _pump(source: socket.socket, target: socket.socket) -> None:
    try:
        while data := source.recv(_CHUNK):
            target.sendall(data)
    except OSError:
        pass
    finally:
        for sock, how in ((target, socket.SHUT_WR), (source, socket.SHUT_RD)):
            try:
                sock.shutdown(how)
            except OSError:
                pass


def _relay(client: socket.socket, path: str) -> None:
    upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        upstream.connect(path)
    except OSError:
        client.close()
        upstream.close()
        return
    back = threading.Thread(target=_pump, args=(upstream, client), daemon=True)
    back.start()
    _pump(client, upstream)
    back.join()
    client.close()
    upstream.close()


def _serve(listener: socket.socket, path: str) -> None:
    while True:
        try:
            client, _ = listener.accept()
        except OSError:
            return
        threading.Thread(target=_relay, args=(client, path), daemon=True).start()


def main(argv: list[str]) -> int:
    if len(argv) < 4 or argv[2] != "--":
        print("usage: cdp_forward.py SOCKET PORT -- COMMAND...", file=sys.stderr)
        return 2
    path, port, command = argv[0], int(argv[1]), argv[3:]
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(16)
    child = os.fork()
    if child == 0:
        listener.close()
        # Python ignores these; a run's programs get the defaults, as subprocess would give them.
        for name in ("SIGPIPE", "SIGXFZ", "SIGXFSZ"):
            if hasattr(signal, name):
                signal.signal(getattr(signal, name), signal.SIG_DFL)
        try:
            os.execvp(command[0], command)
        except OSError as exc:
            print(f"cannot start {command[0]}: {exc}", file=sys.stderr)
        os._exit(127)
    # The child has stdin (a spare's job arrives there), stdout and stderr: the forwarder
    # lets go of them, so that the run's output ends when the run does.
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda number, _frame: os.kill(child, number))
    threading.Thread(target=_serve, args=(listener, path), daemon=True).start()
    while True:
        try:
            _, status = os.waitpid(child, 0)
            break
        except ChildProcessError:
            return 1
        except InterruptedError:
            continue
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)  # end the same way, so the emulator sees the same status
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
