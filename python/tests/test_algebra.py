"""The algebra against scipy products and a pure-Python semiring product."""

import math

import numpy as np
import pytest
import scipy.sparse as sp

import edgeblas as eb
from conftest import random_matrix, to_dict

# name -> (add, multiply(a, b, k))
SEMIRINGS = {
    "plus_times": (lambda x, y: x + y, lambda a, b, k: a * b),
    "min_plus": (min, lambda a, b, k: a + b),
    "max_plus": (max, lambda a, b, k: a + b),
    "max_times": (max, lambda a, b, k: a * b),
    "min_max": (min, lambda a, b, k: max(a, b)),
    "plus_pair": (lambda x, y: x + y, lambda a, b, k: 1.0),
    "plus_first": (lambda x, y: x + y, lambda a, b, k: a),
    "plus_second": (lambda x, y: x + y, lambda a, b, k: b),
    "min_first": (min, lambda a, b, k: a),
    "min_second": (min, lambda a, b, k: b),
    "max_first": (max, lambda a, b, k: a),
    "max_second": (max, lambda a, b, k: b),
    "lor_land": (lambda x, y: x or y, lambda a, b, k: a != 0 and b != 0),
    "any_pair": (lambda x, y: x, lambda a, b, k: True),
    "min_secondi": (min, lambda a, b, k: k),
}


def ref_mxm(a, b, name):
    add, mul = SEMIRINGS[name]
    da, db = to_dict(a), to_dict(b)
    out = {}
    for i, row in da.items():
        for k, x in row.items():
            for j, y in db.get(k, {}).items():
                t = mul(x, y, k)
                out[(i, j)] = add(out[(i, j)], t) if (i, j) in out else t
    return out


def as_pairs(c):
    c = sp.coo_array(c)
    return {(int(i), int(j)): x for i, j, x in zip(c.row, c.col, c.data)}


def assert_matches(c, ref):
    got = as_pairs(c)
    assert set(got) == set(ref)
    for key, want in ref.items():
        assert float(got[key]) == pytest.approx(float(want)), key


@pytest.mark.parametrize("name", sorted(SEMIRINGS))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mxm_semirings_match_reference(name, seed):
    a = random_matrix(30, 20, density=0.15, seed=seed)
    b = random_matrix(20, 25, density=0.15, seed=seed + 10)
    assert_matches(eb.mxm(a, b, name), ref_mxm(a, b, name))


def test_mxm_semiring_output_dtypes():
    a = random_matrix(10, density=0.3, seed=3)
    assert eb.mxm(a, a, "plus_times").dtype == np.float64
    assert eb.mxm(a, a, "lor_land").dtype == np.bool_
    assert eb.mxm(a, a, "any_pair").dtype == np.bool_
    assert eb.mxm(a, a, "min_secondi").dtype == np.int64


def test_any_secondi_picks_a_valid_index():
    a = random_matrix(25, density=0.2, seed=4)
    c = eb.mxm(a, a, "any_secondi")
    da = to_dict(a)
    for (i, j), k in as_pairs(c).items():
        assert k in da[i] and j in da[int(k)]
    assert set(as_pairs(c)) == set(ref_mxm(a, a, "plus_pair"))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("shape", [(40, 40, 40), (17, 33, 9), (1, 50, 1)])
def test_mxm_plus_times_equals_scipy(seed, shape):
    n, k, m = shape
    a = random_matrix(n, k, density=0.2, seed=seed)
    b = random_matrix(k, m, density=0.2, seed=seed + 100)
    c = eb.mxm(a, b)
    assert isinstance(c, sp.csr_array)
    assert c.shape == (n, m)
    np.testing.assert_allclose(c.toarray(), (a @ b).toarray())


def test_mxm_accepts_every_scipy_format():
    a = random_matrix(20, density=0.2, seed=5)
    want = (a @ a).toarray()
    for conv in (sp.csr_matrix, sp.csc_array, sp.coo_array, sp.lil_matrix, sp.dok_array):
        np.testing.assert_allclose(eb.mxm(conv(a), conv(a)).toarray(), want)


def test_mxm_int_and_bool_data_are_converted():
    a = random_matrix(20, density=0.2, seed=6)
    ai = sp.csr_array(a, dtype=np.int32)
    np.testing.assert_allclose(eb.mxm(ai, ai).toarray(), (a @ a).toarray())
    ab = sp.csr_array(a, dtype=bool)
    np.testing.assert_allclose(eb.mxm(ab, ab, "plus_pair").toarray(),
                               (ab.astype(float) @ ab.astype(float)).toarray())


@pytest.mark.parametrize("structural", [True, False])
@pytest.mark.parametrize("complement", [False, True])
def test_mxm_mask(structural, complement):
    a = random_matrix(30, density=0.2, seed=7)
    m = random_matrix(30, density=0.3, seed=8)
    m.data[::3] = 0  # explicit zeros: present in the structure, false as values
    full = ref_mxm(a, a, "plus_times")
    dm = to_dict(m)
    def allowed(i, j):
        inside = j in dm[i] and (structural or dm[i][j] != 0)
        return inside != complement
    want = {k: v for k, v in full.items() if allowed(*k)}
    c = eb.mxm(a, a, mask=m, complement=complement, structural=structural)
    assert_matches(c, want)


@pytest.mark.parametrize("accum", ["plus", "min", "max", "second", "first", "times", "minus"])
def test_mxm_accumulates_into_c(accum):
    a = random_matrix(20, density=0.2, seed=9)
    c0 = random_matrix(20, density=0.2, seed=10)
    ops = {"plus": lambda x, y: x + y, "min": min, "max": max, "second": lambda x, y: y,
           "first": lambda x, y: x, "times": lambda x, y: x * y, "minus": lambda x, y: x - y}
    t = ref_mxm(a, a, "plus_times")
    want = dict(as_pairs(c0))
    for k, v in t.items():
        want[k] = ops[accum](want[k], v) if k in want else v
    assert_matches(eb.mxm(a, a, accum=accum, C=c0), want)


def test_mxm_c_without_accum_is_replaced():
    a = random_matrix(20, density=0.2, seed=11)
    c0 = random_matrix(20, density=0.5, seed=12)
    assert_matches(eb.mxm(a, a, C=c0), ref_mxm(a, a, "plus_times"))


def test_mxm_mask_keeps_c_outside_mask():
    a = random_matrix(20, density=0.2, seed=13)
    c0 = random_matrix(20, density=0.3, seed=14)
    m = random_matrix(20, density=0.3, seed=15)
    t = ref_mxm(a, a, "plus_times")
    dm = to_dict(m)
    want = {}
    for k, v in as_pairs(c0).items():
        if k[1] not in dm[k[0]]:
            want[k] = v
    for k, v in as_pairs(c0).items():
        if k[1] in dm[k[0]]:
            want[k] = v
    for k, v in t.items():
        if k[1] in dm[k[0]]:
            want[k] = want[k] + v if k in want else v
    assert_matches(eb.mxm(a, a, mask=m, accum="plus", C=c0), want)


def test_min_plus_is_one_relaxation_step():
    a = random_matrix(30, density=0.1, seed=16)
    got = eb.mxm(a, a, "min_plus").toarray()
    d = np.where(a.toarray() == 0, np.inf, a.toarray())
    want = np.min(d[:, :, None] + d[None, :, :], axis=1)
    np.testing.assert_allclose(np.where(got == 0, np.inf, got), want)


@pytest.mark.parametrize("semiring", ["plus_times", "min_plus", "max_plus", "plus_pair", "lor_land", "min_secondi", "any_pair"])
@pytest.mark.parametrize("dense", [True, False])
def test_vxm_and_mxv(semiring, dense):
    a = random_matrix(25, 30, density=0.15, seed=17)
    x = np.zeros(25)
    x[[1, 4, 7, 20]] = [2.0, 3.0, 1.0, 5.0]
    xv = eb.Vector.from_dense(x, missing=0.0)
    # A dense array is a full vector: its zeros are entries too.
    row = sp.csr_array((x, np.arange(25), [0, 25]), shape=(1, 25)) if dense else sp.csr_array(x.reshape(1, -1))
    w = eb.vxm(x if dense else xv, a, semiring)
    want = ref_mxm(row, a, semiring)
    assert isinstance(w, eb.Vector) and w.size == 30
    assert w.indices.tolist() == sorted(j for _, j in want)
    for j, v in zip(w.indices, w.values):
        assert float(v) == pytest.approx(float(want[(0, int(j))]))
    y = np.zeros(30)
    y[[0, 3, 29]] = [1.0, 2.0, 4.0]
    v = eb.mxv(a, y if dense else eb.Vector.from_dense(y, missing=0.0), semiring)
    col = (sp.csr_array((y, np.zeros(30, dtype=int), np.arange(31)), shape=(30, 1)) if dense
           else sp.csr_array(y.reshape(-1, 1)))
    want = ref_mxm(a, col, semiring)
    assert v.size == 25
    assert v.indices.tolist() == sorted(i for i, _ in want)
    for i, val in zip(v.indices, v.values):
        assert float(val) == pytest.approx(float(want[(int(i), 0)]))


def test_dense_vector_keeps_every_entry():
    a = random_matrix(10, density=0.3, seed=18)
    x = np.arange(10, dtype=float)
    np.testing.assert_allclose(eb.vxm(x, a).to_dense(), x @ a.toarray())
    np.testing.assert_allclose(eb.mxv(a, x).to_dense(), a.toarray() @ x)


def test_vxm_mask_and_accum():
    a = random_matrix(20, density=0.3, seed=19)
    x = eb.Vector.from_coo([0, 5], [1.0, 2.0], 20)
    mask = eb.Vector.from_coo([1, 2, 3, 4, 5, 6], np.ones(6), 20)
    full = x.to_dense() @ a.toarray()
    w = eb.vxm(x, a, mask=mask)
    assert set(w.indices.tolist()) <= {1, 2, 3, 4, 5, 6}
    for j, v in zip(w.indices, w.values):
        assert v == pytest.approx(full[j])
    wc = eb.vxm(x, a, mask=mask, complement=True)
    assert not set(wc.indices.tolist()) & {1, 2, 3, 4, 5, 6}
    w0 = eb.Vector.from_dense(np.ones(20))
    acc = eb.vxm(x, a, accum="plus", w=w0)
    np.testing.assert_allclose(acc.to_dense(), 1 + full)


class TestVector:
    def test_from_dense_and_to_dense(self):
        v = eb.Vector.from_dense(np.array([0.0, 2.0, 0.0, 3.0]), missing=0.0)
        assert v.indices.tolist() == [1, 3]
        assert v.values.tolist() == [2.0, 3.0]
        np.testing.assert_array_equal(v.to_dense(-1), [-1, 2, -1, 3])

    def test_from_dense_without_missing_keeps_all(self):
        v = eb.Vector.from_dense(np.array([0.0, 2.0]))
        assert v.nvals == 2

    def test_from_dense_nan_missing(self):
        v = eb.Vector.from_dense(np.array([np.nan, 1.0, np.nan]), missing=np.nan)
        assert v.indices.tolist() == [1]

    def test_from_coo_sorts(self):
        v = eb.Vector.from_coo([5, 1, 3], [1.0, 2.0, 3.0], 6)
        assert v.indices.tolist() == [1, 3, 5]
        assert v.values.tolist() == [2.0, 3.0, 1.0]

    def test_from_coo_rejects_duplicates_and_range(self):
        with pytest.raises(ValueError, match="duplicate"):
            eb.Vector.from_coo([1, 1], [1.0, 2.0], 3)
        with pytest.raises(ValueError, match="out of range"):
            eb.Vector.from_coo([3], [1.0], 3)

    def test_vector_ewise(self):
        u = eb.Vector.from_coo([0, 2], [1.0, 2.0], 4)
        v = eb.Vector.from_coo([2, 3], [10.0, 20.0], 4)
        s = eb.ewise_add(u, v)
        assert s.indices.tolist() == [0, 2, 3] and s.values.tolist() == [1.0, 12.0, 20.0]
        p = eb.ewise_mult(u, v)
        assert p.indices.tolist() == [2] and p.values.tolist() == [20.0]
        assert eb.ewise_add(u, v, "max").values.tolist() == [1.0, 10.0, 20.0]

    def test_vector_apply_select_reduce_extract(self):
        u = eb.Vector.from_coo([0, 2, 3], [1.0, -2.0, 3.0], 5)
        assert eb.apply(u, "abs").values.tolist() == [1.0, 2.0, 3.0]
        assert eb.apply(u, "times", right=2.0).values.tolist() == [2.0, -4.0, 6.0]
        assert eb.select(u, "value_gt", 0).indices.tolist() == [0, 3]
        assert eb.reduce_scalar(u) == 2.0
        assert eb.reduce_scalar(u, "max") == 3.0
        e = eb.extract(u, [3, 0, 1])
        assert e.size == 3 and e.indices.tolist() == [0, 1] and e.values.tolist() == [3.0, 1.0]


OPS = {
    "plus": lambda x, y: x + y, "minus": lambda x, y: x - y, "times": lambda x, y: x * y,
    "min": min, "max": max, "first": lambda x, y: x, "second": lambda x, y: y,
    "div": lambda x, y: x / y, "rminus": lambda x, y: y - x,
}


@pytest.mark.parametrize("op", sorted(OPS))
def test_ewise_add_matrix(op):
    a = random_matrix(20, 15, density=0.3, seed=20)
    b = random_matrix(20, 15, density=0.3, seed=21)
    da, db = as_pairs(a), as_pairs(b)
    want = {}
    for k in set(da) | set(db):
        want[k] = OPS[op](da[k], db[k]) if k in da and k in db else da.get(k, db.get(k))
    assert_matches(eb.ewise_add(a, b, op), want)


@pytest.mark.parametrize("op", sorted(OPS))
def test_ewise_mult_matrix(op):
    a = random_matrix(20, 15, density=0.4, seed=22)
    b = random_matrix(20, 15, density=0.4, seed=23)
    da, db = as_pairs(a), as_pairs(b)
    want = {k: OPS[op](da[k], db[k]) for k in set(da) & set(db)}
    assert_matches(eb.ewise_mult(a, b, op), want)


def test_ewise_plus_equals_scipy_sum():
    a = random_matrix(30, density=0.2, seed=24)
    b = random_matrix(30, density=0.2, seed=25)
    np.testing.assert_allclose(eb.ewise_add(a, b).toarray(), (a + b).toarray())
    np.testing.assert_allclose(eb.ewise_mult(a, b).toarray(), a.multiply(b).toarray())


@pytest.mark.parametrize("op,f", [
    ("identity", lambda x: x), ("abs", abs), ("ainv", lambda x: -x), ("minv", lambda x: 1 / x),
    ("one", lambda x: 1.0), ("sqrt", math.sqrt), ("exp", math.exp), ("log", math.log),
])
def test_apply_unary(op, f):
    a = random_matrix(15, density=0.3, seed=26)
    assert_matches(eb.apply(a, op), {k: f(v) for k, v in as_pairs(a).items()})


@pytest.mark.parametrize("op", ["plus", "minus", "times", "div", "min", "max"])
def test_apply_bound(op):
    a = random_matrix(15, density=0.3, seed=27)
    assert_matches(eb.apply(a, op, right=3.0), {k: OPS[op](v, 3.0) for k, v in as_pairs(a).items()})
    assert_matches(eb.apply(a, op, left=3.0), {k: OPS[op](3.0, v) for k, v in as_pairs(a).items()})


@pytest.mark.parametrize("k", [-2, 0, 1])
def test_select_triangles_and_diagonals(k):
    a = random_matrix(20, density=0.4, seed=28)
    d = a.toarray()
    for op, keep in [("tril", np.tril(d, k)), ("triu", np.triu(d, k))]:
        np.testing.assert_allclose(eb.select(a, op, k).toarray(), keep)
    pairs = as_pairs(a)
    assert set(as_pairs(eb.select(a, "diag", k))) == {p for p in pairs if p[1] == p[0] + k}
    assert set(as_pairs(eb.select(a, "offdiag", k))) == {p for p in pairs if p[1] != p[0] + k}


@pytest.mark.parametrize("op,f", [
    ("value_eq", lambda x: x == 5), ("value_ne", lambda x: x != 5), ("value_gt", lambda x: x > 5),
    ("value_ge", lambda x: x >= 5), ("value_lt", lambda x: x < 5), ("value_le", lambda x: x <= 5),
])
def test_select_values(op, f):
    a = random_matrix(20, density=0.4, seed=29)
    assert_matches(eb.select(a, op, 5), {k: v for k, v in as_pairs(a).items() if f(v)})


@pytest.mark.parametrize("monoid,f", [("plus", np.sum), ("max", np.max), ("min", np.min), ("times", np.prod)])
def test_reduce(monoid, f):
    a = random_matrix(25, 18, density=0.15, seed=30)
    r = eb.reduce_rows(a, monoid)
    assert r.size == 25
    for i in range(25):
        row = a.data[a.indptr[i]:a.indptr[i + 1]]
        if row.size:
            assert r.to_dense(np.nan)[i] == pytest.approx(f(row))
        else:
            assert i not in r.indices
    c = eb.reduce_columns(a, monoid)
    at = sp.csr_array(a.T)
    assert c.size == 18
    for j in range(18):
        col = at.data[at.indptr[j]:at.indptr[j + 1]]
        if col.size:
            assert c.to_dense(np.nan)[j] == pytest.approx(f(col))
    assert eb.reduce_scalar(a, monoid) == pytest.approx(f(a.data))


def test_reduce_identities_and_logic():
    empty = sp.csr_array((3, 3))
    assert eb.reduce_scalar(empty) == 0.0
    assert eb.reduce_scalar(empty, "min") == math.inf
    a = sp.csr_array(np.array([[0.0, 1.0], [0.0, 0.0]]))
    assert eb.reduce_scalar(a, "lor") == 1.0
    assert eb.reduce_scalar(a, "land") == 1.0


def test_transpose():
    a = random_matrix(20, 13, density=0.3, seed=31)
    t = eb.transpose(a)
    assert t.shape == (13, 20)
    np.testing.assert_array_equal(t.toarray(), a.T.toarray())
    assert t.has_sorted_indices


def test_extract():
    a = random_matrix(20, 15, density=0.4, seed=32)
    rows, cols = [3, 1, 1, 19], [14, 0, 7]
    np.testing.assert_array_equal(eb.extract(a, rows, cols).toarray(), a.toarray()[np.ix_(rows, cols)])
    np.testing.assert_array_equal(eb.extract(a, rows).toarray(), a.toarray()[rows])
    np.testing.assert_array_equal(eb.extract(a, None, cols).toarray(), a.toarray()[:, cols])


def test_results_are_sorted_canonical_csr():
    a = random_matrix(50, density=0.1, seed=33)
    for c in (eb.mxm(a, a), eb.ewise_add(a, a.T), eb.transpose(a), eb.select(a, "tril")):
        assert isinstance(c, sp.csr_array)
        assert c.has_sorted_indices
        c.check_format(full_check=True)


def test_mxm_on_graphs_with_graph_mask_and_c():
    a = random_matrix(30, density=0.2, seed=40)
    m = random_matrix(30, density=0.3, seed=41)
    c0 = random_matrix(30, density=0.2, seed=42)
    g, gm, gc = eb.Graph.from_scipy(a), eb.Graph.from_scipy(m), eb.Graph.from_scipy(c0)
    want = eb.mxm(a, a, mask=m, accum="plus", C=c0)
    got = eb.mxm(g, g, mask=gm, accum="plus", C=gc)
    assert (want != got).nnz == 0


def test_a_vector_is_a_column():
    """GraphBLAS sees v(i) at row i, column 0 (SuiteSparse's answers, issue 36)."""
    v = eb.Vector([0, 3], np.array([5.0, 0.0]), 4)
    assert eb.select(v, "tril", 0) == v  # 0 <= i + 0 for every i
    assert eb.select(v, "triu", 0).indices.tolist() == [0]
    assert eb.select(v, "diag", 0).indices.tolist() == [0]
    assert eb.select(v, "offdiag", 0).indices.tolist() == [3]
    assert eb.select(v, "tril", -1).indices.tolist() == [3]
    r = eb.apply(v, "rowindex", thunk=1)
    assert r.indices.tolist() == [0, 3] and r.values.tolist() == [1, 4]
    assert r.values.dtype == np.int64
    assert eb.apply(v, "colindex").values.tolist() == [0, 0]
    assert eb.apply(v, "diagindex", thunk=2).values.tolist() == [-2, -5]  # j - (i + k)
    a = sp.csr_array((np.array([1.0, 2.0]), ([0, 1], [2, 0])), shape=(2, 3))
    assert eb.apply(a, "rowindex").data.tolist() == [0, 1]
    assert eb.apply(a, "colindex").data.tolist() == [2, 0]


def test_max_keeps_negative_zero_of_a_tie():
    """max(0.0, -0.0) is -0.0 in either order: inf / max_times(...) is -inf, as in
    SuiteSparse (issue 36)."""
    for av, bv in [([1.0, -1.0], [0.0, 0.0]), ([-1.0, 1.0], [0.0, 0.0])]:
        a = sp.csr_array((np.array(av), ([0, 0], [0, 1])), shape=(1, 2))
        b = sp.csr_array((np.array(bv), ([0, 1], [0, 0])), shape=(2, 1))
        c = sp.csr_array((np.array([np.inf]), ([0], [0])), shape=(1, 1))
        assert eb.mxm(a, b, "max_times", accum="div", C=c).toarray()[0, 0] == -np.inf
    x = sp.csr_array((np.array([0.0, -0.0]), ([0, 0], [0, 1])), shape=(1, 2))
    y = sp.csr_array((np.array([-0.0, 0.0]), ([0, 0], [0, 1])), shape=(1, 2))
    for op in ("max", "min"):
        assert np.signbit(eb.ewise_add(x, y, op).data).all()
        assert np.signbit(eb.apply(x, op, right=-0.0).data).all()
