"""Python's answer shown like node's: the value of the last expression, or of `result`.

The service gives node code's last value in `result`; for python, `result`
is only an alias of stdout (the contract, and its docs' python example that
prints the title). So the console asks for the value itself: before sending
python code it appends a few lines that print the value of the last
expression (or, when the code ends otherwise, of a top-level variable named
`result`) after `MARK`, and `split_result` takes that last line back out of
stdout. The code kept in the history, and recalled, is what was typed; the
line numbers of the user's code are unchanged (the lines go at the end).
Code that does not parse is sent as it is, for the service to report.
"""

from __future__ import annotations

import ast

from tui.contract.limits import CODE_MAX

MARK = "\x1ewds-console-result\x1e"
"""Starts the printed value in stdout (an ASCII record separator: not something code prints)."""

VALUE = "__wds_console_value__"

ECHO = f"""
if __import__("inspect").isawaitable({VALUE}):
    {VALUE} = await {VALUE}
if {VALUE} is not None:
    try:
        {VALUE} = {VALUE} if isinstance({VALUE}, str) else __import__("json").dumps({VALUE}, ensure_ascii=False)
    except (TypeError, ValueError):
        {VALUE} = repr({VALUE})
    print({MARK!r} + {VALUE})
"""
"""Prints the value as node's runner gives it: a string as it is, else JSON, else repr."""


def _offset(source: str, line: int, column: int) -> int:
    """The index in `source` of an ast position (line from 1, column in UTF-8 bytes)."""
    lines = source.splitlines(keepends=True)
    before = sum(len(text) for text in lines[: line - 1])
    return before + len(lines[line - 1].encode("utf-8")[:column].decode("utf-8", errors="ignore"))


def _is_print(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print"


def _assigns_result(tree: ast.Module) -> bool:
    """Whether top-level code binds the name `result` (an assignment, also annotated or augmented)."""
    for statement in tree.body:
        targets: list[ast.expr] = []
        if isinstance(statement, ast.Assign):
            targets = statement.targets
        elif isinstance(statement, ast.AnnAssign | ast.AugAssign):
            targets = [statement.target]
        for target in targets:
            if any(isinstance(node, ast.Name) and node.id == "result" for node in ast.walk(target)):
                return True
    return False


def with_result_echo(code: str) -> str:
    """`code` plus the lines that print its last expression's value (or `result`'s) after MARK."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    if not tree.body:
        return code
    last = tree.body[-1]
    if isinstance(last, ast.Expr) and not _is_print(last.value):
        assert last.end_lineno is not None and last.end_col_offset is not None
        start = _offset(code, last.lineno, last.col_offset)
        end = _offset(code, last.end_lineno, last.end_col_offset)
        echoed = f"{code[:start]}{VALUE} = ({code[start:end]}){code[end:]}"
        source = VALUE
    elif _assigns_result(tree):
        echoed, source = code, 'globals().get("result")'
    else:
        return code
    echoed = f"{echoed.rstrip()}\n{VALUE} = {source}{ECHO}"
    return echoed if len(echoed) <= CODE_MAX else code  # never pushed over the contract's limit


def split_result(stdout: str | None) -> tuple[str | None, str | None]:
    """(stdout without the printed value, the value) when the echo ran, else (stdout, None)."""
    if not stdout or MARK not in stdout:
        return stdout, None
    before, _, value = stdout.rpartition(MARK)
    return before or None, value.removesuffix("\n")
