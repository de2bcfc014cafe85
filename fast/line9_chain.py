"""Line 9 of CALruption (fast path) for a nested class: the LP as a minimum cycle ratio.

When the hypotheses, restricted to the support S_l, form a chain under inclusion (thresholds
of one orientation, any one-sided class, the constant hypotheses among them), order the
points of S_l by how many hypotheses hold them, most first: every h is then the set of the
first c_h points. With z_x = p^_x (1 - 2 eta^_x), which ranges over [-p^_x, p^_x],
r_h = P(c_h), P(c) = the sum of z over the first c points, and R_D(h) - R_D(h') = P(c_h) -
P(c_h') (fast/line9.py's notes). Line 9's LP

    minimise s  subject to  w (P(c_h) - P(c_h') - W^{h,h'}) <= s  for every row (h, h'),
                            |P(c') - P(c)| <= m(c, c')  for consecutive prefix lengths c < c'

(m = the mass p^ of the points in between, the box on eta^) is a system of difference
constraints P(v) - P(u) <= a + s b: a row (h, h') is an edge from node c_h' to node c_h with
a = W^{h,h'} and b = 1/w; a chain step is an edge each way with a = m and b = 0. For a
given s, a P exists iff no cycle has negative cost A(C) + s B(C), so the optimum is

    s* = - min over cycles C with B(C) > 0 of A(C) / B(C)

(a cycle of chain steps alone has B = 0 and A >= 0, so it never binds), the minimum cycle
ratio, found here by Howard's policy iteration (Cochet-Terrasson et al. 1998; Dasdan 2004
measured it the fastest of the cycle-ratio algorithms in practice): a few dense |H| x |H|
passes per iteration instead of an LP over |H|^2 rows.

Certificate. Any cycle C gives the lower bound s* >= -A(C)/B(C): it is the dual solution
that puts lambda = 1/w on its rows (properties/scale/lp.py's weak-duality bound, whose
box term is the cycle's chain steps). The final policy's cycle gives that bound, the
potentials P = -d of its values give eta^, and the value of that eta^ over every row is
the upper bound `lp_value` reports anyway. `fit_nested` returns None -- and line 9 goes on
to row generation -- unless the two are within CHAIN_RTOL |s| + CHAIN_ATOL x scale of each
other, where scale = max over rows of w (|W| + 1), as in fast/line9.py. So what this path
returns is as close to the LP's optimum as row generation's own answer is (HiGHS's
feasibility tolerance, 1e-10 in the rows' units, bounds the latter's error).

Not nested, or no convergence within MAX_ITERATIONS policy improvements and MAX_ROUNDS
dense checks: None (row generation)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .nested import Nested
from .workspace import array

CHAIN_RTOL = 1e-9
CHAIN_ATOL = 1e-12
MAX_ITERATIONS = 500
ROW_BLOCK_ELEMENTS = 2**20  # dense passes go in row blocks of this many elements
# an improvement must beat the current value by this much (in the values' units, relative
# to their magnitude): float noise must not make the policy cycle
IMPROVE_RTOL = 1e-13


def _blocks(rows: int, cols: int):
    size = max(1, ROW_BLOCK_ELEMENTS // max(1, cols))
    for r0 in range(0, rows, size):
        yield r0, min(rows, r0 + size)


def _policy_values(succ: np.ndarray, pa: np.ndarray, pb: np.ndarray):
    """Howard's value determination on the policy graph (one out-edge per node, with its a
    and b): per node the ratio chi of the cycle its path reaches and the value d, with
    d(u) = a - chi b + d(succ u) and d = 0 at the smallest node of each cycle (its root);
    and the cycles as (ratio, root) (`cycle_walk` lists a cycle's nodes). None if a policy
    cycle has B = 0.

    Vectorised by pointer doubling, ceil(log2 n) passes of gathers over the nodes instead
    of a Python walk (at |H| = 4096 the walk took ~3.4 s of a run): after k passes P is
    succ applied 2^k times and M(u) the least node among the 2^k from u on. With 2^K >= n,
    P(u) lies on the cycle u's path reaches and M(P(u)) is that cycle's least node (the
    2^K nodes from a cycle node go round the whole cycle): the root. Then d sums w = a -
    chi b along each path with the roots made absorbing (succ(r) = r, w(r) = 0), by the
    same doubling. Cycle sums run in node order (np.bincount), the path sums by doubling:
    another rounding than a walk's, within the tolerances Howard's steps use."""
    n = len(succ)
    nodes = np.arange(n)
    P = np.asarray(succ, np.int64)
    M = nodes.copy()
    for _ in range(max(1, (n - 1).bit_length())):  # 2^K >= n
        M = np.minimum(M, M[P])
        P = P[P]
    root = M[P]
    on_cycle = np.zeros(n, bool)
    on_cycle[P] = True  # succ^(2^K) maps every node onto the cycles, and each cycle onto itself
    members = np.flatnonzero(on_cycle)
    A = np.bincount(root[members], weights=pa[members], minlength=n)
    B = np.bincount(root[members], weights=pb[members], minlength=n)
    roots = np.unique(root)
    if not (B[roots] > 0).all():
        return None
    ratio = np.zeros(n)
    ratio[roots] = A[roots] / B[roots]
    chi = ratio[root]
    w = pa - chi * pb
    to = np.asarray(succ, np.int64).copy()
    to[roots], w[roots] = roots, 0.0  # the roots absorb: d(r) = 0
    d = w
    for _ in range(max(1, (n - 1).bit_length())):
        d = d + d[to]
        to = to[to]
    return chi, d, [(float(ratio[r]), int(r)) for r in roots]


def cycle_walk(root: int, succ: np.ndarray) -> list[int]:
    """The nodes of the policy cycle through `root`, in the policy's order from it."""
    cycle, u = [root], int(succ[root])
    while u != root:
        cycle.append(u)
        u = int(succ[u])
    return cycle


def _first_minimum(values: np.ndarray, src: np.ndarray, indptr: np.ndarray):
    """Per node (every segment non-empty): the least value over its out-edges and the first
    edge that attains it."""
    least = np.minimum.reduceat(values, indptr[:-1])
    hit = np.flatnonzero(values == least[src])
    _, first = np.unique(src[hit], return_index=True)
    return least, hit[first]


class _Sparse:
    """Howard's policy iteration on a sparse graph in CSR form (edges grouped by source)."""

    def __init__(self, n, src, dst, a, b):
        order = np.lexsort((dst, src))
        self.src, self.dst, self.a, self.b = src[order], dst[order], a[order], b[order]
        self.indptr = np.searchsorted(self.src, np.arange(n + 1))
        self.n = n

    def edge_of(self, src, dst, chain):
        """The index of edge (src -> dst) of the given kind, per node (or -1)."""
        is_chain = self.b == 0
        key = (self.src.astype(np.int64) * self.n + self.dst) * 2 + is_chain
        want = (src.astype(np.int64) * self.n + dst) * 2 + chain
        at = np.searchsorted(key, want)
        at = np.minimum(at, len(key) - 1)
        return np.where(key[at] == want, at, -1)

    def route_to(self, targets: np.ndarray, policy: np.ndarray):
        """The policy with every node outside `targets` on a shortest path (in edges) to
        them, by a breadth-first search backwards from them; None if some node cannot
        reach them. (Howard's first improvement moves a node to a successor of smaller
        ratio one edge at a time: on a sparse graph that spreads one hop per iteration.)"""
        if not hasattr(self, "_by_dst"):
            self._by_dst = np.argsort(self.dst, kind="stable")
            self._dst_ptr = np.searchsorted(self.dst[self._by_dst], np.arange(self.n + 1))
        policy = policy.copy()
        reached = targets.copy()
        frontier = np.flatnonzero(targets)
        while frontier.size:
            starts, ends = self._dst_ptr[frontier], self._dst_ptr[frontier + 1]
            lengths = ends - starts
            total = int(lengths.sum())
            if not total:
                break
            offsets = np.repeat(starts - np.concatenate([[0], np.cumsum(lengths)[:-1]]), lengths)
            edges = self._by_dst[offsets + np.arange(total)]
            sources = self.src[edges]
            new = ~reached[sources]
            edges, sources = edges[new], sources[new]
            frontier, first = np.unique(sources, return_index=True)
            policy[frontier] = edges[first]
            reached[frontier] = True
        return policy if reached.all() else None

    def solve(self, policy: np.ndarray, tol_value):
        """(chi, d, cycles, policy, iterations) at convergence, or None."""
        for iteration in range(1, MAX_ITERATIONS + 1):
            found = _policy_values(self.dst[policy], self.a[policy], self.b[policy])
            if found is None:
                return None
            chi, d, cycles = found
            if chi.min() < chi.max():  # phase 1: every node to the class of the least ratio
                policy = self.route_to(chi == chi.min(), policy)
                if policy is None:
                    return None
                continue
            values = self.a - chi[self.src] * self.b + d[self.dst]  # phase 2: a better value
            if chi.min() < chi.max():
                values = np.where(chi[self.dst] == chi[self.src], values, np.inf)
            least, first = _first_minimum(values, self.src, self.indptr)
            better = least < d - tol_value(d)
            if not better.any():
                return chi, d, cycles, policy, iteration
            policy = np.where(better, first, policy)
        return None


def _first_policy(graph: _Sparse, chain_nodes: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Each node with a pair edge takes its cheapest (by a + d(v)); each other node steps
    along the chain towards the nearest node with one. No policy cycle is then made of chain
    steps alone (B = 0), and Howard's strict improvements never make one: a node u moves to
    the step u -> v only if m + d(v) < d(u) - tol, while v -> u already gives d(v) = m + d(u)."""
    is_pair = graph.b > 0
    values = np.where(is_pair, graph.a + d[graph.dst], np.inf)
    least, policy = _first_minimum(values, graph.src, graph.indptr)
    n = len(chain_nodes)
    with_pair = np.isfinite(least)[chain_nodes]  # by chain position
    t = np.arange(n)
    left = np.maximum.accumulate(np.where(with_pair, t, -1))
    right = np.minimum.accumulate(np.where(with_pair, t, n)[::-1])[::-1]
    go_left = (left >= 0) & ((right >= n) | (t - left <= right - t))
    target = np.where(go_left, t - 1, t + 1)
    walkers = ~with_pair & (left >= 0) | ~with_pair & (right < n)
    nodes = chain_nodes[walkers]
    policy[nodes] = graph.edge_of(nodes, chain_nodes[target[walkers]], np.ones(len(nodes), bool))
    return policy


# out-edges per node in the first sparse graph, and added per node that violates a dense
# check. Measured (CPU s, |H| = 4096 thresholds at paper constants, epochs 1 and 5):
# (16, 8) 1.83 and 2.15, (32, 32) 0.87 and 1.48, (64, 64) 0.95 and 1.71: fewer dense checks
# (3 and 8 instead of 5 and 9) against a larger sparse graph
CANDIDATES_FIRST = 32
CANDIDATES_ADDED = 32
MAX_ROUNDS = 60


def _tolerance(d: np.ndarray) -> float:
    return IMPROVE_RTOL * max(1.0, float(np.abs(d).max()))


def _smallest_per_row(values: np.ndarray, count: int):
    """(rows, cols) of the `count` smallest finite entries of each row."""
    count = min(count, values.shape[1])
    cols = np.argpartition(values, count - 1, axis=1)[:, :count]
    rows = np.repeat(np.arange(values.shape[0]), count)
    cols = cols.ravel()
    keep = np.isfinite(values[rows, cols])
    return rows[keep], cols[keep]


def _by_blocks(n: int, workers: int, task) -> list:
    """[task(r0, r1, slot) for each row block], in order; with workers > 1 the blocks are
    split into that many contiguous runs, one thread each (slot: the thread's number, for
    its own buffer). numpy releases the GIL in the passes, so the runs overlap."""
    blocks = list(_blocks(n, n))
    if workers <= 1 or len(blocks) < 2:
        return [task(r0, r1, 0) for r0, r1 in blocks]
    runs = np.array_split(np.arange(len(blocks)), min(workers, len(blocks)))

    def run(slot):
        return [task(*blocks[i], slot) for i in runs[slot]]

    with ThreadPoolExecutor(len(runs)) as pool:
        return [result for part in pool.map(run, range(len(runs))) for result in part]


class _HostPasses:
    """The dense passes of `min_cycle_ratio` on host numpy arrays A and B (`edge_rounds`
    gives the interface), with a dense mask of the chosen edges and one reduced-cost
    buffer per thread."""

    def __init__(self, A: np.ndarray, B: np.ndarray, workspace=None, workers: int = 1):
        n = A.shape[0]
        self.A, self.B, self.workers = A, B, workers
        self.chosen = array(workspace, "chosen edges", (n, n), bool)
        self.chosen.fill(False)
        self.buffers = [
            array(workspace, f"reduced costs {slot}", (min(n, max(1, ROW_BLOCK_ELEMENTS // n)), n), np.float64)
            for slot in range(max(1, workers))
        ]

    def first(self):
        A, n = self.A, self.A.shape[0]
        # first guess of the potentials: d(h) = P(h) ~ r_h - mean r ~ the row mean of W
        d = np.zeros(n)
        for r0, r1 in _blocks(n, n):
            block = A[r0:r1]
            finite = np.isfinite(block)
            d[r0:r1] = np.where(finite, block, 0.0).sum(axis=1) / np.maximum(1, finite.sum(axis=1))

        def first_candidates(r0, r1, slot):
            block = self.buffers[slot][: r1 - r0]
            np.add(A[r0:r1], d[None, :], out=block)
            rows, cols = _smallest_per_row(block, CANDIDATES_FIRST)
            return rows + r0, cols

        found = _by_blocks(n, self.workers, first_candidates)
        for rows, cols in found:
            self.chosen[rows, cols] = True
        return d, found

    def gather(self, rows, cols):
        return self.A[rows, cols], self.B[rows, cols]

    def violated(self, lam: float, d: np.ndarray, tol: float):
        A, B, chosen = self.A, self.B, self.chosen

        def violated_edges(r0, r1, slot):
            # reduced costs a - lambda b + d(v) - d(u); Howard's optimum keeps the chosen
            # edges >= -tol, so only the others can be below it
            reduced = self.buffers[slot][: r1 - r0]
            np.multiply(B[r0:r1], -lam, out=reduced)
            reduced += A[r0:r1]
            reduced += d[None, :]
            reduced -= d[r0:r1, None]
            bad = np.flatnonzero(reduced.min(axis=1) < -tol)
            if not len(bad):
                return None
            violated = reduced[bad]
            rows, cols = _smallest_per_row(violated, CANDIDATES_ADDED)
            keep = (violated[rows, cols] < -tol) & ~chosen[bad[rows] + r0, cols]
            return bad[rows[keep]] + r0, cols[keep]

        found = [part for part in _by_blocks(A.shape[0], self.workers, violated_edges) if part is not None]
        for rows, cols in found:
            chosen[rows, cols] = True
        return found

    def edges(self) -> int:
        return int(self.chosen.sum())


def edge_rounds(n: int, chain_nodes: np.ndarray, chain_mass: np.ndarray, passes, stats=None):
    """Howard's algorithm with edge generation on n nodes: (d, the critical cycle's edges
    as (src, dst, is chain step)) or None. The chain (chain_nodes in chain order,
    chain_mass[t] the a of the steps between chain_nodes[t] and chain_nodes[t+1], b = 0)
    is always in the sparse graph; the pair edges come from `passes`, which does every
    dense pass wherever its arrays live:

    * passes.first() -> (d, parts): the first potentials (host, length n) and the first
      candidate edges as a list of (rows, cols) host arrays, recorded as chosen;
    * passes.gather(rows, cols) -> (a, b) of those edges, host arrays;
    * passes.violated(lam, d, tol) -> parts: edges not chosen before whose reduced cost
      a - lam b + d(v) - d(u) is below -tol (a few per violating node), recorded as chosen;
    * passes.edges() -> how many are chosen."""
    c_src = np.concatenate([chain_nodes[:-1], chain_nodes[1:]])
    c_dst = np.concatenate([chain_nodes[1:], chain_nodes[:-1]])
    c_a = np.concatenate([chain_mass, chain_mass])
    src_parts, dst_parts, a_parts, b_parts = [], [], [], []

    def add(parts):
        for rows, cols in parts:
            a, b = passes.gather(rows, cols)
            src_parts.append(rows)
            dst_parts.append(cols)
            a_parts.append(a)
            b_parts.append(b)
        return sum(len(rows) for rows, _ in parts)

    d, parts = passes.first()
    add(parts)
    policy_src = policy_dst = policy_chain = None
    for rounds in range(1, MAX_ROUNDS + 1):
        graph = _Sparse(
            n,
            np.concatenate([*src_parts, c_src]),
            np.concatenate([*dst_parts, c_dst]),
            np.concatenate([*a_parts, c_a]),
            np.concatenate([*b_parts, np.zeros(len(c_src))]),
        )
        if policy_src is None:
            policy = _first_policy(graph, chain_nodes, d)
        else:
            policy = graph.edge_of(policy_src, policy_dst, policy_chain)
        solved = graph.solve(policy, _tolerance)
        if solved is None:
            return None
        chi, d, cycles, policy, iterations = solved
        if chi.min() < chi.max():
            return None  # the chain joins every node: one class at convergence
        lam = float(chi[0])
        policy_src, policy_dst, policy_chain = graph.src[policy], graph.dst[policy], graph.b[policy] == 0
        added = add(passes.violated(lam, d, _tolerance(d)))
        if stats is not None:
            stats["rounds"] = rounds
            stats["iterations"] = stats.get("iterations", 0) + iterations
            stats["edges"] = passes.edges()
        if not added:
            _, root = min(cycles, key=lambda rc: rc[0])
            edges = policy[np.array(cycle_walk(root, graph.dst[policy]))]
            return d, (graph.src[edges], graph.dst[edges], graph.b[edges] == 0)
    return None


def min_cycle_ratio(
    A: np.ndarray,
    B: np.ndarray,
    chain_nodes: np.ndarray,
    chain_mass: np.ndarray,
    stats=None,
    workspace=None,
    workers: int = 1,
):
    """Howard's algorithm with edge generation: (d, the critical cycle's edges as (src,
    dst, is chain step)) or None.

    A, B: the dense pair edges (A = +inf where none); chain_nodes: the nodes in chain order,
    chain_mass[t] the a of the steps between chain_nodes[t] and chain_nodes[t+1] (b = 0).
    Howard runs on the chain plus a few candidate pair edges per node, chosen by reduced
    cost a - lambda b + d(v) - d(u); a dense pass then checks every pair edge at the sparse
    optimum (lambda, d) and adds the violated ones. When none is violated, d is feasible
    for the whole graph at lambda, so lambda is the whole graph's minimum ratio. The dense
    passes here are on the host (fast/line9_device.py has them on an array backend)."""
    return edge_rounds(A.shape[0], chain_nodes, chain_mass, _HostPasses(A, B, workspace, workers), stats)


def cycle_lower_bound(cycle, W: np.ndarray, weight: np.ndarray, chain_nodes: np.ndarray, chain_mass: np.ndarray):
    """The lower bound max(0, -A(C)/B(C)) on line 9's optimum from a cycle (src, dst, is
    chain step per edge), recomputed from W, the weights and the chain alone (module
    notes: the dual solution lambda = 1/w on its rows), or None if it is not a closed
    walk of existing edges with B > 0."""
    src, dst, chain = cycle
    pairs = src[~chain], dst[~chain]
    return cycle_bound(cycle, W[pairs], weight[pairs], chain_nodes, chain_mass)


def cycle_bound(cycle, pair_W: np.ndarray, pair_w: np.ndarray, chain_nodes: np.ndarray, chain_mass: np.ndarray):
    """`cycle_lower_bound` with the W and weights of the cycle's pair edges (in the cycle's
    order) gathered by the caller, wherever those matrices live."""
    src, dst, chain = cycle
    if not len(src) or (np.roll(dst, 1) != src).any():
        return None
    position = np.empty(len(chain_nodes), np.int64)
    position[chain_nodes] = np.arange(len(chain_nodes))
    step = position[dst[chain]] - position[src[chain]]
    if (np.abs(step) != 1).any():
        return None
    if not np.isfinite(pair_w).all() or not len(pair_w):
        return None
    A = float(np.sum(pair_W)) + float(np.sum(chain_mass[np.minimum(position[src[chain]], position[dst[chain]])]))
    B = float(np.sum(1.0 / pair_w))
    return max(0.0, -A / B)


def chain_of(nested: Nested, pS: np.ndarray):
    """(sigma, mass): the hypotheses in chain order (by prefix length) and the mass p^ of
    the points between consecutive ones (the chain steps' a, module notes)."""
    c, order = nested.lengths, nested.order
    sigma = np.argsort(c, kind="stable")
    prefix = np.concatenate([[0.0], np.cumsum(pS[order])])
    return sigma, prefix[c[sigma[1:]]] - prefix[c[sigma[:-1]]]


def eta_of(P: np.ndarray, nested: Nested, sigma: np.ndarray, mass: np.ndarray) -> np.ndarray:
    """eta^ on S from the potentials P (P(c_h) = the prefix sum of z up to h's length):
    each block of points between consecutive chain members takes the one eta^ that makes
    its z sum to the (clipped) step of P."""
    c, order = nested.lengths, nested.order
    step = np.clip(P[sigma[1:]] - P[sigma[:-1]], -mass, mass)
    with np.errstate(divide="ignore", invalid="ignore"):
        block_eta = np.where(mass > 0, (1 - step / mass) / 2, 0.5)
    eta_ordered = np.full(len(order), 0.5)
    starts, ends = c[sigma[:-1]], c[sigma[1:]]
    for t in np.flatnonzero(ends > starts):  # z_x = p^_x step / m on the block: one eta^ per block
        eta_ordered[starts[t] : ends[t]] = block_eta[t]
    eta = np.empty(len(order))
    eta[order] = np.clip(eta_ordered, 0.0, 1.0)
    return eta


def fit_nested(
    HS: np.ndarray,
    pS: np.ndarray,
    weight: np.ndarray,
    W: np.ndarray,
    stats: dict | None = None,
    nested: Nested | None = None,
    workspace=None,
    workers: int = 1,
):
    """(eta^ on S, the lower bound from the critical cycle, recomputed by
    `cycle_lower_bound`) for a nested class, or None (module notes). The caller computes
    the value of eta^ over every row and compares. `nested`: the class's Nested on S, when
    the caller has it (else found from HS); `workspace` (fast/workspace.py), arrays to reuse;
    `workers`, threads for the dense passes (the result does not depend on them)."""
    if nested is None:
        nested = Nested.of(HS)
    if stats is not None:
        stats["nested"] = nested is not None
    if nested is None or HS.shape[0] < 2:
        return None
    sigma, mass = chain_of(nested, pS)
    no_row = ~np.isfinite(weight)
    A = array(workspace, "edge a", weight.shape, np.float64)  # float64 also for a float32 build's inputs
    np.copyto(A, W)
    np.copyto(A, np.inf, where=no_row)
    B = array(workspace, "edge b", weight.shape, np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        np.divide(1.0, weight, out=B)
    np.copyto(B, 0.0, where=no_row)
    del no_row
    solved = min_cycle_ratio(A, B, sigma, mass, stats, workspace, workers)
    del A, B
    if solved is None:
        return None
    P, cycle = solved  # P = d: r_h - r_h' <= W + s* / w on every row (module notes)
    lower = cycle_lower_bound(cycle, W, weight, sigma, mass)
    if lower is None:
        return None
    eta = eta_of(P, nested, sigma, mass)
    if stats is not None:
        stats.update(method="cycle_ratio", cycle_length=len(cycle[0]))
    return eta, lower
