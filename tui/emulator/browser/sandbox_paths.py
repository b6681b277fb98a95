"""What a sandbox's file system is made of: a chosen list of host paths, read-only.

A sandbox starts from an empty root (bubblewrap's tmpfs) and gets:

- the system's programs and libraries: `/usr` and the top-level `/bin`, `/lib`...
  (mirrored as the symlinks they are on a merged-/usr system);
- from `/etc`, only what programs read to run: the dynamic linker's cache,
  fonts, CA certificates, `passwd`/`group` (names, no hashes), time zone, MIME
  types, Chromium's launcher settings. Never `shadow`, `ssh`, `sudoers`, package
  managers' credentials (`apt/auth.conf`, `pip.conf`, `npmrc`, `gitconfig`);
- the runtime this emulator runs on (`runtime_paths`): Python's installation and
  the venv, Playwright (and its driver's node), the runner scripts, Chromium's
  directory, and a node with playwright-core when that is what node runs use.

Nothing else of the host is there: no home directory (`/root` included), no
`/work` or other checkouts beyond the venv, no `/var`, `/srv`, `/mnt`, `/opt`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from importlib.util import find_spec
from pathlib import Path

SYSTEM_PATHS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC_PATHS = (
    "alternatives",
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "fonts",
    "ssl/certs",
    "ssl/openssl.cnf",
    "ca-certificates",
    "ca-certificates.conf",
    "pki/tls/certs",
    "passwd",
    "group",
    "nsswitch.conf",
    "hosts",
    "host.conf",
    "localtime",
    "timezone",
    "mime.types",
    "os-release",
    "chromium",
    "chromium.d",
    "chromium-browser",
    "xdg",
    "gai.conf",
    "protocols",
    "services",
    "magic",
    "magic.mime",
)
CACHE_PATHS = ("/var/cache/fontconfig",)
# The runner scripts (runner_python.py, runner_node.js, agent_browser.py, cdp_forward.py) import
# only the standard library and Playwright: their directory is all of this package a sandbox needs.
PACKAGE_DIR = Path(__file__).resolve().parent


def runtime_paths(extra: Iterable[Path] = ()) -> list[Path]:
    """The directories sandboxed programs run from (see module doc), outside the system paths,
    without those inside another one of them. `extra`: what the caller adds (Chromium's and
    node's directories)."""
    found = {Path(sys.prefix), Path(sys.exec_prefix), Path(sys.base_prefix), PACKAGE_DIR}
    playwright = find_spec("playwright")
    if playwright is not None and playwright.origin:
        found.add(Path(playwright.origin).resolve().parent)
    found.update(Path(p) for p in extra)
    resolved = set()
    for path in found:
        try:
            resolved.add(path.resolve())
        except OSError:
            continue
    home = Path.home().resolve()
    kept = [p for p in resolved if p.exists() and p != Path("/") and p != home and not _system(p)]
    return sorted(p for p in kept if not any(p != other and p.is_relative_to(other) for other in kept))


def _system(path: Path) -> bool:
    return any(path.is_relative_to(Path(root).resolve()) for root in SYSTEM_PATHS if Path(root).exists())


def _mirror(path: Path) -> list[str]:
    """bwrap arguments that show `path` as it is on the host: a symlink as the same symlink."""
    if path.is_symlink():
        return ["--symlink", os.readlink(path), str(path)]
    return ["--ro-bind", str(path), str(path)]


def filesystem_args(runtime: Sequence[Path], hidden: Sequence[Path]) -> list[str]:
    """bwrap arguments for the read-only view (see module doc), `hidden` masked where they fall inside it.

    `/proc`, `/dev` and the private tmpfs mounts are the sandbox's own (`sandbox.py`).
    """
    args: list[str] = []
    for name in SYSTEM_PATHS:
        if os.path.lexists(name):
            args += _mirror(Path(name))
    for name in ETC_PATHS:
        path = Path("/etc") / name
        if os.path.lexists(path) and path.exists():
            args += _mirror(path) if path.parent == Path("/etc") else ["--ro-bind", str(path), str(path)]
    for name in CACHE_PATHS:
        if Path(name).is_dir():
            args += ["--ro-bind", name, name]
    for path in runtime:
        args += ["--ro-bind", str(path), str(path)]
    bound = [Path(p).resolve() for p in SYSTEM_PATHS if Path(p).exists()] + [p.resolve() for p in runtime]
    for path in hidden:
        if not path.exists() or not any(_inside(path, root) for root in bound):
            continue  # not in the sandbox's view anyway
        # A directory is covered by an empty tmpfs; a file (a key file) by /dev/null
        # (a device node needs --dev-bind: plain binds are nodev).
        args += ["--tmpfs", str(path)] if path.is_dir() else ["--dev-bind", "/dev/null", str(path)]
    return args


def _inside(path: Path, root: Path) -> bool:
    try:
        return path.resolve().is_relative_to(root)
    except OSError:
        return False


# bwrap options that mount something at their last argument, with how many arguments they take.
_MOUNTS = {
    "--ro-bind": 2,
    "--bind": 2,
    "--dev-bind": 2,
    "--symlink": 2,
    "--tmpfs": 1,
    "--dev": 1,
    "--proc": 1,
    "--dir": 1,
}
_BINDS = ("--ro-bind", "--bind", "--dev-bind")
_MODIFIERS = ("--perms", "--size")  # each takes one argument and applies to the next mount
_OTHERS = {"--setenv": 2, "--chdir": 1, "--hostname": 1, "--cap-add": 1, "--cap-drop": 1}


class ParentDirs:
    """Adds `--perms 0755 --dir` before each bwrap mount for its missing parent directories.

    bwrap makes a mount point's missing parents itself, but with mode 0700, which a sandbox
    running as another uid cannot enter: `/etc` made for `/etc/fonts` would hide the fonts.
    What it has seen carries over (`copy`): the fixed part of every sandbox is planned once.
    """

    def __init__(self) -> None:
        self.made: set[str] = {"/"}
        self.binds: list[str] = []  # host directories mounted: what is inside them exists already

    def copy(self) -> ParentDirs:
        other = ParentDirs()
        other.made, other.binds = set(self.made), list(self.binds)
        return other

    def plan(self, args: Sequence[str]) -> list[str]:
        """bwrap options `args`, with the parents they need made first."""
        out: list[str] = []
        modifiers: list[str] = []
        index = 0
        while index < len(args):
            option = args[index]
            if option in _MODIFIERS:
                modifiers += args[index : index + 2]
                index += 2
                continue
            count = _MOUNTS.get(option, _OTHERS.get(option, 0))
            if option in _MOUNTS:
                destination = args[index + count]
                for parent in self._missing_parents(destination):
                    out += ["--perms", "0755", "--dir", parent]
                    self.made.add(parent)
                self.made.add(destination)
                if option in _BINDS:
                    self.binds.append(destination.rstrip("/") + "/")
            out += modifiers + list(args[index : index + count + 1])
            modifiers = []
            index += count + 1
        return out + modifiers

    def _missing_parents(self, destination: str) -> list[str]:
        missing = []
        parent = os.path.dirname(destination.rstrip("/"))
        while parent not in self.made and not any(parent.startswith(bind) for bind in self.binds):
            missing.append(parent)
            parent = os.path.dirname(parent)
        return missing[::-1]
