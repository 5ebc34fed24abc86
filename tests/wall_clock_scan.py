"""Finds, in a test module's syntax tree, what makes a test depend on the machine's speed
(issue 36 item 3): an ``assert`` on time read from the wall clock, and a real sleep longer
than a poll's tick. ``tests/test_no_wall_clock.py`` runs it over every test module.

What counts as time read from the wall clock:
- a call of ``time.monotonic``, ``time.perf_counter``, ``time.time``, ``time.process_time``
  (and their ``_ns`` forms, also imported by name), ``datetime.now`` or ``datetime.utcnow``;
- a name assigned from one (``started = time.monotonic()``, then ``elapsed = ... - started``),
  or from a call of a function of the same module that returns one;
- in a comparison that bounds it (``<``, ``>=``, ``approx``, by anything but zero), a name,
  attribute or string key that says it holds a measured time (``elapsed``, ``took``,
  ``duration_s``, ...). A bare ``"duration"`` key is the API's field of a job (read on the
  server's own clock), not a measurement.

A real sleep is ``time.sleep`` or ``asyncio.sleep`` (or either imported by name). Its length
is read from literals and the module's constants; a length it cannot read counts as long.
Fake sleeps (a ``VirtualClock``'s, a recorder's) are other names and are not sleeps here.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

WALL_CLOCK_READS = {
    "time": {"monotonic", "perf_counter", "time", "process_time"},
    "datetime": {"now", "utcnow"},
}
SLEEPS = {"time": "sleep", "asyncio": "sleep"}
TIMING_NAME = re.compile(r"(^|_)(elapsed|took|wall|walltime)(_|$)|^duration(_s|_ms|_seconds)?$")
TIMING_KEY = re.compile(r"(^|_)(elapsed|took|wall)(_|$)|^duration_(s|ms|seconds)$")
PASS_THROUGH = {"round", "abs", "int", "float", "min", "max", "sum"}  # a reading stays one


@dataclass(frozen=True)
class Finding:
    """One place: ``line`` of the module, inside ``where`` (``Class.method``, ``outer.inner``,
    or ``<module>``), and what is wrong there."""

    line: int
    where: str
    what: str


@dataclass(frozen=True)
class Sleep:
    line: int
    where: str
    seconds: float | None  # None: a length the scan cannot read


def _base(name: str) -> str:
    return name.removesuffix("_ns")


class _Module:
    """The module's imports of clock functions, its numeric constants and the functions that
    return a time read from the wall clock."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.clock_names: set[str] = set()  # ``from time import monotonic`` and the like
        self.sleep_names: set[str] = set()  # ``from time import sleep``
        self.constants: dict[str, float] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in WALL_CLOCK_READS:
                for alias in node.names:
                    local = alias.asname or alias.name
                    if _base(alias.name) in WALL_CLOCK_READS[node.module]:
                        self.clock_names.add(local)
                    if SLEEPS.get(node.module) == alias.name:
                        self.sleep_names.add(local)
        for statement in tree.body:
            if isinstance(statement, ast.Assign | ast.AnnAssign) and statement.value is not None:
                targets = (
                    statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                )
                value = self.number(statement.value)
                for target in targets:
                    if isinstance(target, ast.Name) and value is not None:
                        self.constants[target.id] = value
        self.clock_functions = self._clock_functions()

    def number(self, node: ast.expr) -> float | None:
        """The value of a numeric expression of literals and the module's constants."""
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            return float(node.value)
        if isinstance(node, ast.Name):
            return self.constants.get(node.id)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            value = self.number(node.operand)
            return None if value is None else -value
        if isinstance(node, ast.BinOp):
            left, right = self.number(node.left), self.number(node.right)
            if left is None or right is None:
                return None
            operations = {ast.Add: left + right, ast.Sub: left - right, ast.Mult: left * right}
            if isinstance(node.op, ast.Div) and right:
                return left / right
            return operations.get(type(node.op))
        return None

    def reads_wall_clock(self, call: ast.Call) -> bool:
        func = call.func
        if isinstance(func, ast.Name):
            whole = func.id in self.clock_functions and self.clock_functions[func.id] is None
            return func.id in self.clock_names or whole
        if isinstance(func, ast.Attribute):
            owner = func.value
            owner_name = (
                owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
            )
            return _base(func.attr) in WALL_CLOCK_READS.get(owner_name, set())
        return False

    def sleep_call(self, call: ast.Call) -> bool:
        func = call.func
        if isinstance(func, ast.Name):
            return func.id in self.sleep_names
        return (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and SLEEPS.get(func.value.id) == func.attr
        )

    def _clock_functions(self) -> dict[str, frozenset[int] | None]:
        """The module's functions that return a wall-clock reading: by name, the positions of
        the returned tuple that hold one (None: the whole value)."""
        found: dict[str, frozenset[int] | None] = {}
        self.clock_functions = found
        calls = (node for node in ast.walk(self.tree) if isinstance(node, ast.Call))
        self.reads_clock = any(self.reads_wall_clock(call) for call in calls)
        for _ in range(3 if self.reads_clock else 0):  # a helper of a helper of a helper
            for node in ast.walk(self.tree):
                if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                tainted = self.tainted_names(node)
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Return) and inner.value is not None:
                        positions = self._timed_positions(inner.value, tainted)
                        if positions != frozenset():
                            found[node.name] = positions
        return found

    def _timed_positions(self, value: ast.expr, tainted: set[str]) -> frozenset[int] | None:
        if isinstance(value, ast.Tuple):
            return frozenset(i for i, e in enumerate(value.elts) if self.timed(e, tainted))
        return None if self.timed(value, tainted) else frozenset()

    def timed(self, node: ast.expr, tainted: set[str], *, by_name: bool = False) -> bool:
        """Whether the value of ``node`` is time read from the wall clock (``by_name``: or a
        name, attribute or key says it is a measured time). A value passed to another call
        (a client's request, a server's clock) is that call's business, not a reading."""
        if isinstance(node, ast.Call):
            if self.reads_wall_clock(node):
                return True
            if isinstance(node.func, ast.Attribute):  # ``(now - then).total_seconds()``
                return self.timed(node.func.value, tainted, by_name=by_name)
            pure = isinstance(node.func, ast.Name) and node.func.id in PASS_THROUGH
            return pure and any(self.timed(arg, tainted, by_name=by_name) for arg in node.args)
        if isinstance(node, ast.Name):
            return node.id in tainted or (by_name and bool(TIMING_NAME.search(node.id)))
        if isinstance(node, ast.Attribute):
            named = by_name and bool(TIMING_NAME.search(node.attr))
            return named or self.timed(node.value, tainted, by_name=by_name)
        if isinstance(node, ast.Subscript):
            key = node.slice
            if not (by_name and isinstance(key, ast.Constant) and isinstance(key.value, str)):
                return False
            return bool(TIMING_KEY.search(key.value))
        if isinstance(node, ast.BinOp):
            return self.timed(node.left, tainted, by_name=by_name) or self.timed(
                node.right, tainted, by_name=by_name
            )
        if isinstance(node, ast.UnaryOp):
            return self.timed(node.operand, tainted, by_name=by_name)
        if isinstance(node, ast.Tuple | ast.List):
            return any(self.timed(e, tainted, by_name=by_name) for e in node.elts)
        if isinstance(node, ast.IfExp):
            return self.timed(node.body, tainted, by_name=by_name) or self.timed(
                node.orelse, tainted, by_name=by_name
            )
        return False

    def _assigned(self, target: ast.expr, value: ast.expr, tainted: set[str]) -> set[str]:
        """The names of ``target`` that ``value`` gives a wall-clock reading."""
        if isinstance(target, ast.Tuple) and isinstance(value, ast.Call):
            func = value.func
            name = func.id if isinstance(func, ast.Name) else ""
            positions = self.clock_functions.get(name, frozenset())
            if positions:
                elements = enumerate(target.elts)
                return {e.id for i, e in elements if i in positions and isinstance(e, ast.Name)}
        if not self.timed(value, tainted):
            return set()
        return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}

    def tainted_names(self, scope: ast.AST) -> set[str]:
        """Names of ``scope`` assigned, directly or not, from a wall-clock reading."""
        tainted: set[str] = set()
        for _ in range(4 if self.reads_clock else 0):
            before = len(tainted)
            for node in ast.walk(scope):
                if isinstance(node, ast.Assign):
                    for target in node.targets:
                        tainted |= self._assigned(target, node.value, tainted)
                elif isinstance(node, ast.AnnAssign | ast.AugAssign) and node.value is not None:
                    tainted |= self._assigned(node.target, node.value, tainted)
            if len(tainted) == before:
                break
        return tainted


def _scopes(tree: ast.Module) -> list[tuple[str, ast.AST]]:
    """The module and every function in it, by qualified name."""
    scopes: list[tuple[str, ast.AST]] = [("<module>", tree)]

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                scopes.append((prefix + child.name, child))
                visit(child, prefix + child.name + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")
            else:
                visit(child, prefix)

    visit(tree, "")
    return scopes


def _own_nodes(scope: ast.AST) -> list[ast.AST]:
    """The nodes of ``scope`` outside the functions defined in it."""
    nodes: list[ast.AST] = []
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        nodes.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return nodes


def _bounds_a_time(compare: ast.Compare) -> bool:
    """Whether ``compare`` bounds a value (``<``, ``>=``, ``approx``) other than by zero. A
    measured time can only be bounded: an exact ``==`` is a virtual clock's, and ``> 0``
    says a time was measured at all, whatever the machine's speed."""
    operands = [compare.left, *compare.comparators]
    if any(isinstance(o, ast.Constant) and o.value == 0 for o in operands):
        return False
    approx = any(
        isinstance(n, ast.Call) and getattr(n.func, "attr", getattr(n.func, "id", "")) == "approx"
        for o in operands
        for n in ast.walk(o)
    )
    return approx or any(isinstance(op, ast.Lt | ast.LtE | ast.Gt | ast.GtE) for op in compare.ops)


def wall_clock_assertions(source: str) -> list[Finding]:
    """Every ``assert`` whose comparison involves time read from the wall clock."""
    return _assertions(_Module(ast.parse(source)))


def real_sleeps(source: str) -> list[Sleep]:
    """Every call of a real sleep, with its length where the scan can read it."""
    return _sleeps(_Module(ast.parse(source)))


def scan(source: str) -> tuple[list[Finding], list[Sleep]]:
    """Both, from one parse."""
    module = _Module(ast.parse(source))
    return _assertions(module), _sleeps(module)


def _assertions(module: _Module) -> list[Finding]:
    findings: list[Finding] = []
    for where, scope in _scopes(module.tree):
        tainted = module.tainted_names(scope) if where != "<module>" else set()
        for node in _own_nodes(scope):
            if not isinstance(node, ast.Assert):
                continue
            for compare in (n for n in ast.walk(node.test) if isinstance(n, ast.Compare)):
                operands = [compare.left, *compare.comparators]
                by_name = _bounds_a_time(compare)
                if any(module.timed(operand, tainted, by_name=by_name) for operand in operands):
                    text = ast.unparse(compare)
                    findings.append(Finding(node.lineno, where, f"asserts wall-clock time: {text}"))
                    break
    return findings


def _sleeps(module: _Module) -> list[Sleep]:
    sleeps: list[Sleep] = []
    for where, scope in _scopes(module.tree):
        for node in _own_nodes(scope):
            if isinstance(node, ast.Call) and module.sleep_call(node):
                seconds = module.number(node.args[0]) if node.args else 0.0
                sleeps.append(Sleep(node.lineno, where, seconds))
    return sorted(sleeps, key=lambda sleep: sleep.line)
