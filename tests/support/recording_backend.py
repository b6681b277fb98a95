"""`RecordingBackend`: a test double of the browser backend, for bookkeeping tests only.

It implements `tui.emulator.browser.backend.BrowserBackend` without starting
any process: launches, closes and executions are recorded, and each execution
answers with a scripted `ExecutionOutcome`. Tests of real browsers (with
Chromium) live with the browser package's tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tui.emulator.browser.backend import BrowserHandle, BrowserUnavailable, ExecutionOutcome, ProfileSpec


@dataclass
class ExecuteCall:
    session_id: str
    code: str
    language: str
    timeout: float


@dataclass
class RecordingBackend:
    """Records what the session manager asked of a browser backend."""

    available: bool = True
    unavailable_reason: str = ""
    launches: list[tuple[str, ProfileSpec | None]] = field(default_factory=list)
    closes: list[tuple[str, bool]] = field(default_factory=list)
    executions: list[ExecuteCall] = field(default_factory=list)
    outcomes: list[ExecutionOutcome] = field(default_factory=list)
    shutdowns: int = 0
    fail_launch_with: Exception | None = None

    def script(self, *outcomes: ExecutionOutcome) -> None:
        """Queue the outcomes of the next executions (a plain success once the queue is empty)."""
        self.outcomes.extend(outcomes)

    @property
    def open_sessions(self) -> set[str]:
        return {sid for sid, _ in self.launches} - {sid for sid, _ in self.closes}

    async def launch(self, session_id: str, profile: ProfileSpec | None) -> BrowserHandle:
        if self.fail_launch_with is not None:
            raise self.fail_launch_with
        if not self.available:
            raise BrowserUnavailable(self.unavailable_reason)
        self.launches.append((session_id, profile))
        return BrowserHandle(
            session_id=session_id,
            ws_endpoint=f"ws://127.0.0.1:9/devtools/browser/{session_id}",
            pid=0,
            user_data_dir=Path("/nonexistent") / session_id,
        )

    async def close(self, handle: BrowserHandle, save_profile: bool) -> None:
        self.closes.append((handle.session_id, save_profile))

    async def execute(self, handle: BrowserHandle, code: str, language: str, timeout: float) -> ExecutionOutcome:
        self.executions.append(ExecuteCall(handle.session_id, code, language, timeout))
        if self.outcomes:
            return self.outcomes.pop(0)
        return ExecutionOutcome(stdout="ok\n", stderr="", exit_code=0, killed=False, error=None, result="42")

    async def shutdown(self) -> None:
        self.shutdowns += 1
