"""Shared helpers: random graphs and small pure-Python references."""

import os
from collections import deque
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp


def random_matrix(n, m=None, density=0.1, seed=0, negative=False, integer=True):
    """A random csr_array with sorted, unique indices; integer-valued data by default so
    that float sums are exact."""
    m = n if m is None else m
    rng = np.random.default_rng(seed)
    a = sp.random_array((n, m), density=density, format="csr", rng=rng)
    if integer:
        a.data = np.floor(a.data * 9) + 1
    if negative:
        a.data -= 5
        a.data[a.data == 0] = 1
    a.sort_indices()
    return sp.csr_array(a)


def random_graph(n, density=0.05, seed=0, undirected=False, weights=False):
    a = random_matrix(n, density=density, seed=seed)
    a.setdiag(0)
    a.eliminate_zeros()
    if undirected:
        a = a + a.T
    if not weights:
        a.data[:] = 1.0
    a = sp.csr_array(a)
    a.sort_indices()
    return a


def to_dict(a):
    """{i: {j: x}} of a sparse matrix."""
    a = sp.csr_array(a)
    out = {}
    for i in range(a.shape[0]):
        lo, hi = a.indptr[i], a.indptr[i + 1]
        out[i] = {int(j): float(x) for j, x in zip(a.indices[lo:hi], a.data[lo:hi])}
    return out


def neighbours(a):
    a = sp.csr_array(a)
    return [a.indices[a.indptr[i]:a.indptr[i + 1]].tolist() for i in range(a.shape[0])]


def ref_bfs(a, s):
    """Levels and smallest-index parents from the previous level."""
    nb = neighbours(a)
    n = len(nb)
    level = [-1] * n
    level[s] = 0
    q = deque([s])
    while q:
        u = q.popleft()
        for v in nb[u]:
            if level[v] < 0:
                level[v] = level[u] + 1
                q.append(v)
    parent = [-1] * n
    parent[s] = s
    for u in range(n):
        if level[u] < 0:
            continue
        for v in nb[u]:
            if level[v] == level[u] + 1 and (parent[v] < 0 or u < parent[v]):
                parent[v] = u
    return np.array(level), np.array(parent)


def ref_pagerank(a, d, iterations, undirected=False):
    nb = neighbours(a)
    n = len(nb)
    out = [len(x) for x in nb]
    pr = [1.0 / n] * n
    for _ in range(iterations):
        dangling = sum(pr[w] for w in range(n) if out[w] == 0)
        new = [(1 - d) / n + d * dangling / n] * n
        for u in range(n):
            for v in nb[u]:
                new[v] += d * pr[u] / out[u]
        pr = new
    return np.array(pr)


def ref_cdlp(a, iterations, directed=True):
    nb = neighbours(a)
    n = len(nb)
    adj = [[] for _ in range(n)]
    for u in range(n):
        for v in nb[u]:
            adj[u].append(v)
            if directed:
                adj[v].append(u)
    lab = list(range(n))
    for _ in range(iterations):
        new = []
        for v in range(n):
            if not adj[v]:
                new.append(lab[v])
                continue
            count = {}
            for u in adj[v]:
                count[lab[u]] = count.get(lab[u], 0) + 1
            best = max(count.values())
            new.append(min(k for k, c in count.items() if c == best))
        lab = new
    return np.array(lab)


def ref_lcc(a):
    nb = neighbours(a)
    n = len(nb)
    arcs = {(u, v) for u in range(n) for v in nb[u] if u != v}
    sets = [set() for _ in range(n)]
    for u, v in arcs:
        sets[u].add(v)
        sets[v].add(u)
    out = np.zeros(n)
    for v in range(n):
        k = len(sets[v])
        if k <= 1:
            continue
        c = sum(1 for u in sets[v] for w in nb[u] if w in sets[v] and w != u)
        out[v] = c / (k * (k - 1))
    return out


def ref_betweenness(a, sources):
    nb = neighbours(a)
    n = len(nb)
    bc = np.zeros(n)
    for s in sources:
        sigma = [0.0] * n
        sigma[s] = 1.0
        dist = [-1] * n
        dist[s] = 0
        order = []
        q = deque([s])
        while q:
            u = q.popleft()
            order.append(u)
            for v in nb[u]:
                if dist[v] < 0:
                    dist[v] = dist[u] + 1
                    q.append(v)
                if dist[v] == dist[u] + 1:
                    sigma[v] += sigma[u]
        delta = [0.0] * n
        for w in reversed(order):
            for v in nb[w]:
                if dist[v] == dist[w] + 1:
                    delta[w] += sigma[w] / sigma[v] * (1 + delta[v])
            if w != s:
                bc[w] += delta[w]
    return bc


def ref_triangles(a):
    a = sp.csr_array(a, dtype=np.float64)
    a.setdiag(0)
    a.eliminate_zeros()
    a.data[:] = 1
    return int(round((a @ a).multiply(a).sum() / 6))


GRAPHALYTICS = Path(os.environ.get("EDGEBLAS_DATA", Path(__file__).resolve().parents[2] / ".." / "shared" / "data")) / "graphalytics"


@pytest.fixture
def graphalytics():
    if not GRAPHALYTICS.is_dir():
        pytest.skip(f"the Graphalytics validation graphs are not at {GRAPHALYTICS} (set EDGEBLAS_DATA)")
    return GRAPHALYTICS
