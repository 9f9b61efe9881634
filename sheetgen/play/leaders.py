"""Leader lines that run between the things drawn, never across them.

``route(start, target, obstacles, leaders, region)`` is the path of a
leader from ``start`` to the middle of one edge of the box ``target``: a
straight line where one is free, else the shortest path of horizontal and
vertical runs (each bend costs ``BEND`` mm) along the lanes between the
obstacles.  It keeps ``CLEARANCE`` off every obstacle box and every earlier
leader, and touches ``target`` only where it ends.  Pure geometry in mm.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from ..pdf.geometry import Box

Point = tuple[float, float]
Path = tuple[Point, ...]

CLEARANCE = 0.6  # mm a leader keeps off anything it passes where it can
TIGHT = 0.15  # and the least it keeps, in a gap between cells
NARROW = 4.0  # what a mm run closer than CLEARANCE costs, in mm: only to reach a box that is hemmed in
BEND = 6.0  # what a bend costs, in mm of length: a longer run with fewer bends is preferred
EPSILON = 1e-9


def ends(target: Box) -> tuple[Point, ...]:
    """Where a leader may end: the middle of each edge of ``target``."""
    return ((target.x, target.cy), (target.right, target.cy), (target.cx, target.y), (target.cx, target.bottom))


def crosses_box(a: Point, b: Point, box: Box) -> bool:
    """Whether the segment ``a``-``b`` passes through the inside of ``box`` (touching its edge does not count)."""
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in ((-dx, a[0] - box.x), (dx, box.right - a[0]), (-dy, a[1] - box.y), (dy, box.bottom - a[1])):
        if abs(p) < EPSILON:
            if q <= EPSILON:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 >= t1 - EPSILON:
            return False
    return True


def crosses_segment(a: Point, b: Point, c: Point, d: Point, clearance: float = 0.0) -> bool:
    """Whether the segments ``a``-``b`` and ``c``-``d`` meet, or come closer than ``clearance``."""
    if clearance > 0 and min(_distance(p, c, d) for p in (a, b)) < clearance:
        return True
    if clearance > 0 and min(_distance(p, a, b) for p in (c, d)) < clearance:
        return True

    def side(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    d1, d2, d3, d4 = side(c, d, a), side(c, d, b), side(a, b, c), side(a, b, d)
    return d1 * d2 < 0 and d3 * d4 < 0


def _distance(p: Point, a: Point, b: Point) -> float:
    """From ``p`` to the segment ``a``-``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = dx * dx + dy * dy
    t = 0.0 if length < EPSILON else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length))
    x, y = a[0] + t * dx - p[0], a[1] + t * dy - p[1]
    return float((x * x + y * y) ** 0.5)


def segments(path: Path) -> list[tuple[Point, Point]]:
    return list(zip(path, path[1:]))


def free(a: Point, b: Point, obstacles: Sequence[Box], target: Box, leaders: Sequence[Path],
         clearance: float = CLEARANCE) -> bool:
    """Whether the run ``a``-``b`` keeps ``clearance`` off ``obstacles`` and
    ``leaders``, and off the inside of ``target``."""
    if crosses_box(a, b, target):
        return False
    if any(crosses_box(a, b, box.inset(-clearance)) for box in obstacles):
        return False
    return not any(crosses_segment(a, b, c, d, clearance) for leader in leaders for c, d in segments(leader))


def route(start: Point, target: Box, obstacles: Sequence[Box], leaders: Sequence[Path], region: Box,
          tight: bool = True) -> Path | None:
    """The leader from ``start`` to an edge of ``target`` inside ``region``
    (see the module's text), through the gaps between cells only if
    ``tight``; None if no path is free."""
    for end in sorted(ends(target), key=lambda end: _length((start, end))):
        if free(start, end, obstacles, target, leaders):
            return start, end
    return _lanes(start, target, obstacles, leaders, region, tight)


def _length(path: Path) -> float:
    return sum(abs(b[0] - a[0]) + abs(b[1] - a[1]) for a, b in segments(path))


def _lanes(start: Point, target: Box, obstacles: Sequence[Box], leaders: Sequence[Path], region: Box,
           tight: bool = True) -> Path | None:
    """The cheapest path of horizontal and vertical runs on the lanes between
    the obstacles (the middle of every gap between their edges), closer than
    ``CLEARANCE`` to them only if ``tight``; or None."""
    grown = [box.inset(-CLEARANCE) for box in obstacles]
    goals = list(ends(target))
    xs = _lanes_between([v for b in grown for v in (b.x, b.right)] + [region.x, region.right], region.x, region.right)
    ys = _lanes_between([v for b in grown for v in (b.y, b.bottom)] + [region.y, region.bottom], region.y,
                        region.bottom)
    least = TIGHT if tight else CLEARANCE
    # And the lanes that clear the target: a leader comes to it square on from there.
    near, closest = target.inset(-CLEARANCE * 1.5), target.inset(-least * 1.5)
    xs = sorted(set(xs) | {start[0], near.x, near.right, closest.x, closest.right} | {g[0] for g in goals})
    ys = sorted(set(ys) | {start[1], near.y, near.bottom, closest.y, closest.bottom} | {g[1] for g in goals})
    rails = [seg for leader in leaders for seg in segments(leader)]
    # Lanes round the ends of the leaders drawn before, to pass them by.
    beside = CLEARANCE * 1.5
    xs = sorted(set(xs) | {v for leader in leaders for x, _ in leader for v in (x - beside, x + beside)
                           if region.x < v < region.right})
    ys = sorted(set(ys) | {v for leader in leaders for _, y in leader for v in (y - beside, y + beside)
                           if region.y < v < region.bottom})
    # What may not be crossed: the obstacles and the target, kept off by the least clearance, but for the last
    # step into an end (the target's inside only); and what is dear to pass near.
    kept = [box.inset(-least) for box in obstacles]
    hard, last = kept + [target.inset(-least)], kept + [target]
    soft = grown + [target.inset(-CLEARANCE)]
    across = [_blocked(ys, xs, hard, rails, True, least), _blocked(ys, xs, soft, rails, True, CLEARANCE),
              _blocked(ys, xs, last, rails, True, least)]
    down = [_blocked(xs, ys, hard, rails, False, least), _blocked(xs, ys, soft, rails, False, CLEARANCE),
            _blocked(xs, ys, last, rails, False, least)]
    # Each end is reached across its edge, not along it: from the left, the right, above, below.
    goal_nodes = {(xs.index(g[0]), ys.index(g[1]), heading) for g, heading in zip(goals, (0, 1, 2, 3))}
    if not any(_reachable(node, across[2], down[2]) for node in goal_nodes):
        return None
    # The lines an end is approached on, square to its edge and towards it: there only the target's inside
    # is in the way (vertical ones by x index, horizontal ones by y index).
    approaches = {False: {(gi, h) for gi, _, h in goal_nodes if h in (2, 3)},
                  True: {(gj, h) for _, gj, h in goal_nodes if h in (0, 1)}}
    first = (xs.index(start[0]), ys.index(start[1]))

    def still(i: int, j: int) -> float:
        """The least a path from node (i, j) still costs: its distance to the nearest end."""
        return min(abs(xs[i] - g[0]) + abs(ys[j] - g[1]) for g in goals)

    heap: list[tuple[float, float, int, int, int]] = [(still(*first), 0.0, first[0], first[1], -1)]
    best: dict[tuple[int, int, int], float] = {}
    came: dict[tuple[int, int, int], tuple[int, int, int] | None] = {(first[0], first[1], -1): None}
    while heap:
        _, cost, i, j, heading = heapq.heappop(heap)
        state = (i, j, heading)
        if best.get(state, float("inf")) < cost - EPSILON:
            continue
        if state in goal_nodes:
            return _path(state, came, xs, ys)
        for move, (di, dj) in enumerate(((1, 0), (-1, 0), (0, 1), (0, -1))):
            ni, nj = i + di, j + dj
            if not (0 <= ni < len(xs) and 0 <= nj < len(ys)):
                continue
            table, at, k = (across, j, min(i, ni)) if dj == 0 else (down, i, min(j, nj))
            nxt = (ni, nj, move)
            if table[2 if (at, move) in approaches[dj == 0] else 0][at][k]:
                continue
            step = (abs(xs[ni] - xs[i]) + abs(ys[nj] - ys[j])) * (NARROW if table[1][at][k] else 1.0)
            step += BEND if heading not in (-1, move) else 0.0
            if cost + step < best.get(nxt, float("inf")) - EPSILON:
                best[nxt] = cost + step
                came[nxt] = state
                heapq.heappush(heap, (cost + step + still(ni, nj), cost + step, ni, nj, move))
    return None


def _reachable(goal: tuple[int, int, int], across: list[list[bool]], down: list[list[bool]]) -> bool:
    """Whether the last step into ``goal`` (i, j, the heading it is reached in) is free."""
    i, j, heading = goal
    if heading in (0, 1):
        k = i - 1 if heading == 0 else i
        return 0 <= k < len(across[j]) and not across[j][k]
    k = j - 1 if heading == 2 else j
    return 0 <= k < len(down[i]) and not down[i][k]


def _lanes_between(edges: list[float], low: float, high: float) -> list[float]:
    """The middle of every gap between consecutive ``edges`` inside [low, high]."""
    values = sorted({round(v, 6) for v in edges if low <= v <= high})
    return [(a + b) / 2 for a, b in zip(values, values[1:])]


def _blocked(lines: list[float], steps: list[float], walls: Sequence[Box],
             rails: Sequence[tuple[Point, Point]], horizontal: bool, clearance: float) -> list[list[bool]]:
    """For each lane at ``lines`` (a y if ``horizontal``, else an x; in
    order), which steps between consecutive ``steps`` cross a wall's inside
    or come within ``clearance`` of a rail."""
    spans: list[list[tuple[float, float]]] = [[] for _ in lines]
    for box in walls:
        low, high, lo, hi = (box.y, box.bottom, box.x, box.right) if horizontal else \
            (box.x, box.right, box.y, box.bottom)
        for n in range(bisect_right(lines, low + EPSILON), bisect_left(lines, high - EPSILON)):
            spans[n].append((lo, hi))
    for a, b in rails:
        (pa, qa), (pb, qb) = ((a[1], a[0]), (b[1], b[0])) if horizontal else (a, b)
        for n in range(bisect_right(lines, min(pa, pb) - clearance), bisect_left(lines, max(pa, pb) + clearance)):
            if abs(pb - pa) < EPSILON:
                spans[n].append((min(qa, qb) - clearance, max(qa, qb) + clearance))
            else:
                t = max(0.0, min(1.0, (lines[n] - pa) / (pb - pa)))
                q = qa + t * (qb - qa)
                slack = clearance * (1 + abs((qb - qa) / (pb - pa)))
                spans[n].append((q - slack, q + slack))
    table = []
    for found in spans:
        row = [False] * (len(steps) - 1)
        for lo, hi in found:  # the steps k with steps[k] < hi and steps[k + 1] > lo
            first, last = max(0, bisect_right(steps, lo + EPSILON) - 1), min(len(row), bisect_left(steps, hi - EPSILON))
            if first < last:
                row[first:last] = [True] * (last - first)
        table.append(row)
    return table


def _path(state: tuple[int, int, int], came: dict[tuple[int, int, int], tuple[int, int, int] | None],
          xs: list[float], ys: list[float]) -> Path:
    """The points of the path that ends in ``state``, its bends only."""
    nodes: list[Point] = []
    at: tuple[int, int, int] | None = state
    while at is not None:
        nodes.append((xs[at[0]], ys[at[1]]))
        at = came[at]
    nodes.reverse()
    kept = [nodes[0]]
    for a, b in zip(nodes[1:], nodes[2:]):
        prev = kept[-1]
        if not (abs(prev[0] - a[0]) < EPSILON and abs(a[0] - b[0]) < EPSILON
                or abs(prev[1] - a[1]) < EPSILON and abs(a[1] - b[1]) < EPSILON):
            kept.append(a)
    kept.append(nodes[-1])
    return tuple(kept)
