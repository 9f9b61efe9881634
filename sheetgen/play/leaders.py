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
    for end in sorted(ends(target), key=lambda end: length((start, end))):
        if free(start, end, obstacles, target, leaders):
            return start, end
    return _lanes(start, target, obstacles, leaders, region, tight)


def length(path: Path) -> float:
    """How far ``path`` runs, across and down (its runs are horizontal and vertical, or one straight line)."""
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
    # step into an end (the target's inside only); and what is dear to pass near.  The obstacles' part of a
    # table is found once for both tables that hold them.
    kept = [box.inset(-least) for box in obstacles]
    across_kept, down_kept = _blocked(ys, xs, kept, rails, True, least), _blocked(xs, ys, kept, rails, False, least)
    across_hard = _blocked(ys, xs, [target.inset(-least)], (), True, least, across_kept)
    across_last = _blocked(ys, xs, [target], (), True, least, across_kept)
    down_hard = _blocked(xs, ys, [target.inset(-least)], (), False, least, down_kept)
    down_last = _blocked(xs, ys, [target], (), False, least, down_kept)
    # Each end is reached across its edge, not along it: from the left, the right, above, below.
    goal_nodes = {(xs.index(g[0]), ys.index(g[1]), heading) for g, heading in zip(goals, (0, 1, 2, 3))}
    if not any(_reachable(node, across_last, down_last) for node in goal_nodes):
        return None
    # The lines an end is approached on, square to its edge and towards it: there only the target's inside
    # is in the way (vertical ones by x index, horizontal ones by y index).  ``walls[move][lane]``: the
    # steps a move (right, left, down, up) may not take along that lane.
    approaches = {(gj if h in (0, 1) else gi, h) for gi, gj, h in goal_nodes}
    walls = [[(across_last if (j, move) in approaches else across_hard)[j] for j in range(len(ys))]
             for move in (0, 1)] + [[(down_last if (i, move) in approaches else down_hard)[i] for i in range(len(xs))]
                                    for move in (2, 3)]
    first = (xs.index(start[0]), ys.index(start[1]))
    if not _connected(first, goal_nodes, walls, len(xs), len(ys)):
        return None  # the search below would look everywhere to find that out
    soft = grown + [target.inset(-CLEARANCE)]
    narrow = [_blocked(ys, xs, soft, rails, True, CLEARANCE), _blocked(xs, ys, soft, rails, False, CLEARANCE)]
    return _search(first, goal_nodes, walls, narrow, xs, ys, goals)


def _connected(first: tuple[int, int], goal_nodes: set[tuple[int, int, int]], walls: list[list[list[bool]]],
               nx: int, ny: int) -> bool:
    """Whether any of ``goal_nodes`` (i, j, the heading it is reached in) can be reached from node ``first``
    by free steps at all, whatever they cost (a node (i, j) is the number i * ny + j here).  Walked from
    both ends in turn: where either end is hemmed in, its side runs out after a few steps."""
    right, left, down, up = walls
    deltas = (ny, -ny, 1, -1)

    def free(node: int, move: int) -> bool:
        """Whether the step ``move`` (right, left, down, up) from ``node`` is free."""
        i, j = divmod(node, ny)
        if move == 0:
            return i + 1 < nx and not right[j][i]
        if move == 1:
            return i > 0 and not left[j][i - 1]
        if move == 2:
            return j + 1 < ny and not down[i][j]
        return j > 0 and not up[i][j - 1]

    ahead = {first[0] * ny + first[1]}  # the nodes reached from the start
    behind: set[int] = set()  # and those from which an end can be reached
    for i, j, heading in goal_nodes:
        node = i * ny + j - deltas[heading]  # the node the last step into that end starts from
        if 0 <= i - (heading == 0) + (heading == 1) < nx and 0 <= j - (heading == 2) + (heading == 3) < ny \
                and free(node, heading):
            behind.add(node)
    if ahead & behind:
        return True
    forward, backward = list(ahead), list(behind)
    while forward and backward:
        node = forward.pop()
        for move in (0, 1, 2, 3):
            if free(node, move):
                nxt = node + deltas[move]
                if nxt in behind:
                    return True
                if nxt not in ahead:
                    ahead.add(nxt)
                    forward.append(nxt)
        node = backward.pop()
        for move in (0, 1, 2, 3):  # the nodes a step ``move`` leads from into ``node``
            i, j = divmod(node, ny)
            if not (0 <= i - (move == 0) + (move == 1) < nx and 0 <= j - (move == 2) + (move == 3) < ny):
                continue
            before = node - deltas[move]
            if before not in behind and free(before, move):
                if before in ahead:
                    return True
                behind.add(before)
                backward.append(before)
    return False


def _search(first: tuple[int, int], goal_nodes: set[tuple[int, int, int]], walls: list[list[list[bool]]],
            narrow: list[list[list[bool]]], xs: list[float], ys: list[float], goals: list[Point]) -> Path | None:
    """The A* search of ``_lanes`` from node ``first`` to the first of ``goal_nodes`` (heading -1: none
    yet; a bend costs ``BEND``, a step within ``narrow`` lanes ``NARROW`` times its length).  A state
    (i, j, heading) is the number ((i * ny) + j) * 5 + heading + 1, which sorts as the tuple would."""
    nx, ny = len(xs), len(ys)
    gaps_x = [abs(xs[k + 1] - xs[k]) for k in range(nx - 1)]
    gaps_y = [abs(ys[k + 1] - ys[k]) for k in range(ny - 1)]
    to_x = [[abs(x - g[0]) for x in xs] for g in goals]
    to_y = [[abs(y - g[1]) for y in ys] for g in goals]
    (ax, bx, cx, dx), (ay, by, cy, dy) = to_x, to_y

    def still(i: int, j: int) -> float:
        """The least a path from node (i, j) still costs: its distance to the nearest end."""
        return min(ax[i] + ay[j], bx[i] + by[j], cx[i] + cy[j], dx[i] + dy[j])

    targets = {((i * ny) + j) * 5 + heading + 1 for i, j, heading in goal_nodes}
    inf = float("inf")
    start = (first[0] * ny + first[1]) * 5
    heap: list[tuple[float, float, int]] = [(still(*first), 0.0, start)]
    best: dict[int, float] = {}
    came: dict[int, int] = {}
    push, pop = heapq.heappush, heapq.heappop
    right, left, down, up = walls
    narrow_across, narrow_down = narrow
    while heap:
        _, cost, state = pop(heap)
        if best.get(state, inf) < cost - EPSILON:
            continue
        if state in targets:
            return _path(state, came, start, xs, ys)
        node, heading = divmod(state, 5)
        i, j = divmod(node, ny)
        heading -= 1
        for move in (0, 1, 2, 3):
            if move == 0:
                if i + 1 >= nx or right[j][i]:
                    continue
                ni, nj, step = i + 1, j, gaps_x[i] * (NARROW if narrow_across[j][i] else 1.0)
            elif move == 1:
                if i == 0 or left[j][i - 1]:
                    continue
                ni, nj, step = i - 1, j, gaps_x[i - 1] * (NARROW if narrow_across[j][i - 1] else 1.0)
            elif move == 2:
                if j + 1 >= ny or down[i][j]:
                    continue
                ni, nj, step = i, j + 1, gaps_y[j] * (NARROW if narrow_down[i][j] else 1.0)
            else:
                if j == 0 or up[i][j - 1]:
                    continue
                ni, nj, step = i, j - 1, gaps_y[j - 1] * (NARROW if narrow_down[i][j - 1] else 1.0)
            if heading != -1 and heading != move:
                step += BEND
            nxt = (ni * ny + nj) * 5 + move + 1
            total = cost + step
            if total < best.get(nxt, inf) - EPSILON:
                best[nxt] = total
                came[nxt] = state
                push(heap, (total + still(ni, nj), total, nxt))
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


def _blocked(lines: list[float], steps: list[float], walls: Sequence[Box], rails: Sequence[tuple[Point, Point]],
             horizontal: bool, clearance: float, base: list[list[bool]] | None = None) -> list[list[bool]]:
    """For each lane at ``lines`` (a y if ``horizontal``, else an x; in
    order), which steps between consecutive ``steps`` cross a wall's inside
    or come within ``clearance`` of a rail, or are blocked in ``base``."""
    size = len(steps) - 1
    table = [[False] * size for _ in lines] if base is None else [row[:] for row in base]

    def cover(rows: range, lo: float, hi: float) -> None:
        """Block, on the lanes ``rows``, the steps k with steps[k] < hi and steps[k + 1] > lo."""
        first, last = max(0, bisect_right(steps, lo + EPSILON) - 1), min(size, bisect_left(steps, hi - EPSILON))
        if first < last and rows:
            run = [True] * (last - first)
            for n in rows:
                table[n][first:last] = run

    for box in walls:
        low, high, lo, hi = (box.y, box.bottom, box.x, box.right) if horizontal else \
            (box.x, box.right, box.y, box.bottom)
        cover(range(bisect_right(lines, low + EPSILON), bisect_left(lines, high - EPSILON)), lo, hi)
    for a, b in rails:
        (pa, qa), (pb, qb) = ((a[1], a[0]), (b[1], b[0])) if horizontal else (a, b)
        near = range(bisect_right(lines, min(pa, pb) - clearance), bisect_left(lines, max(pa, pb) + clearance))
        if abs(pb - pa) < EPSILON:
            cover(near, min(qa, qb) - clearance, max(qa, qb) + clearance)
            continue
        for n in near:
            t = max(0.0, min(1.0, (lines[n] - pa) / (pb - pa)))
            q = qa + t * (qb - qa)
            slack = clearance * (1 + abs((qb - qa) / (pb - pa)))
            cover(range(n, n + 1), q - slack, q + slack)
    return table


def _path(state: int, came: dict[int, int], start: int, xs: list[float], ys: list[float]) -> Path:
    """The points of the path that ends in ``state`` (numbered as in ``_search``), its bends only."""
    nodes: list[Point] = []
    at = state
    while True:
        i, j = divmod(at // 5, len(ys))
        nodes.append((xs[i], ys[j]))
        if at == start:
            break
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
