"""Differential test: every operation the bindings expose, against SuiteSparse:GraphBLAS.

The same call runs through edgeblas and through python-graphblas (its SuiteSparse
backend) on seeded random inputs: shapes 0 to 13 on each side, densities from empty to
dense, float64, int64 and bool data, explicit zeros, signed zeros and infinities, x as
a Vector or a dense array, A as a matrix or an eb.Graph. Patterns must agree exactly;
values exactly for integer and boolean results and for float operations that round once
per entry, within a tolerance where a float sum's order is free.

edgeblas computes in float64 (an int64 or bool input is converted first, as documented
in edgeblas/__init__.py); SuiteSparse computes in the input's own type. The reference
therefore runs natively in int64 or bool only where every operator of the call means the
same on integers as on their float64 values (``NATIVE``), and in FP64 of the converted
values elsewhere (integer division, bool PLUS = LOR, ...).

A mismatch is shrunk (dimensions lowered, entries removed, while it still mismatches)
and the assertion prints the small case as a Python repro.
"""

import math

import numpy as np
import pytest
import scipy.sparse as sp

import edgeblas as eb

gb = pytest.importorskip(
    "graphblas",
    reason="python-graphblas (SuiteSparse:GraphBLAS) is not installed: "
    "scripts/python-tests.sh installs it for this test",
)
from graphblas import binary, indexunary, monoid, select, semiring, unary  # noqa: E402

SEED = 36
DIMS = [0, 1, 2, 3, 4, 5, 6, 8, 13]
DENSITIES = [0.0, 0.15, 0.3, 0.5, 0.7, 1.0]
DTYPES = ["float64", "int64", "bool"]
GB_TYPE = {"float64": "FP64", "int64": "INT64", "bool": "BOOL"}

SEMIRINGS = [
    "plus_times", "min_plus", "max_plus", "max_times", "min_max", "plus_pair",
    "plus_first", "plus_second", "min_first", "min_second", "max_first", "max_second",
    "lor_land", "or_and", "any_pair", "min_secondi", "any_secondi",
]
# Each edgeblas semiring name as python-graphblas spells it.
GB_SEMIRING = {
    "or_and": "lor_land",
    "min_secondi": "ss.min_secondi",
    "any_secondi": "ss.any_secondi",
}
BOOL_OUT = {"lor_land", "or_and", "any_pair"}
INDEX_OUT = {"min_secondi", "any_secondi"}

BINARY = ["plus", "minus", "rminus", "times", "div", "rdiv", "min", "max", "first",
          "second", "pair", "pow", "eq", "ne", "lt", "le", "gt", "ge", "lor", "land", "lxor"]
# GrB's EQ..GE give BOOL, which an ewise_add would also cast its lone entries to; the
# ISEQ..ISGE forms keep the input type (1 or 0), as edgeblas does.
GB_BINARY = {"div": "truediv", "eq": "iseq", "ne": "isne",
             "lt": "islt", "le": "isle", "gt": "isgt", "ge": "isge"}
UNARY = ["identity", "abs", "ainv", "minv", "one", "lnot", "sqrt", "exp", "log"]
MONOIDS = ["plus", "times", "min", "max", "lor", "land", "any"]
SELECTS = ["tril", "triu", "diag", "offdiag", "value_eq", "value_ne", "value_gt",
           "value_ge", "value_lt", "value_le", "nonzero"]
INDEX_APPLY = ["rowindex", "colindex", "diagindex"]

# Operators that mean the same on int64 (small values: no overflow) or on bool as on
# their values converted to float64; a call using any other runs the reference in FP64.
_SAME_ON_INTS = {
    "bound", "plus", "minus", "rminus", "times", "min", "max", "first", "second", "pair", "eq",
    "ne", "lt", "le", "gt", "ge", "lor", "land", "lxor", "identity", "abs", "ainv", "one",
    "lnot", "any", "nonzero",
} | set(SEMIRINGS) | set(SELECTS) | set(INDEX_APPLY)
# On bool, PLUS is LOR, MINUS is LXOR and AINV is the identity: not the float meaning.
# MAX_TIMES and the like mean the same on bool but SuiteSparse does not name them there.
_SAME_ON_BOOLS = {
    "times", "min", "max", "first", "second", "pair", "eq", "ne", "lt", "le", "gt", "ge",
    "lor", "land", "lxor", "identity", "abs", "one", "lnot", "any", "nonzero",
    "lor_land", "or_and", "any_pair", "min_secondi", "any_secondi",
} | set(SELECTS) | set(INDEX_APPLY)
NATIVE = {"float64": None, "int64": _SAME_ON_INTS, "bool": _SAME_ON_BOOLS}


# ----------------------------------------------------------------------------
# Random inputs


def random_values(rng, n, dtype):
    if dtype == "bool":
        return rng.random(n) < 0.6
    if dtype == "int64":
        return rng.integers(-4, 5, n).astype(np.int64)
    kind = rng.random(n)
    v = rng.integers(-3, 4, n).astype(np.float64)  # small integers, 0 among them
    v = np.where(kind < 0.3, np.round(rng.uniform(-4, 4, n), 3), v)
    v = np.where((kind >= 0.3) & (kind < 0.34), -0.0, v)
    v = np.where((kind >= 0.34) & (kind < 0.37), np.inf, v)
    v = np.where((kind >= 0.37) & (kind < 0.40), -np.inf, v)
    # No NaN: the bindings refuse one in an input ("weight NaN is not a number"); NaNs
    # still arise inside the operations (inf - inf, 0 * inf).
    return v


def random_entries(rng, shape, dtype, density=None):
    """``{index tuple: value}`` over ``shape``: a random density unless given."""
    size = int(np.prod(shape)) if shape else 1
    d = rng.choice(DENSITIES) if density is None else density
    keep = np.flatnonzero(rng.random(size) < d)
    vals = random_values(rng, keep.size, dtype)
    return {tuple(int(t) for t in np.unravel_index(k, shape)): v for k, v in zip(keep, vals)}


def operand(rng, dims, names, dtype, **kw):
    return (tuple(names), random_entries(rng, tuple(dims[n] for n in names), dtype, **kw),
            dtype)


# ----------------------------------------------------------------------------
# Building both libraries' objects from a case


def shape_of(case, names):
    return tuple(case["dims"][n] for n in names)


def _arrays(entries, ndim, dtype):
    keys = sorted(entries)
    idx = [np.array([k[d] for k in keys], dtype=np.int64) for d in range(ndim)]
    vals = np.array([entries[k] for k in keys], dtype=dtype)
    return idx, vals


def eb_object(case, name):
    names, entries, dtype = case["inputs"][name]
    shape = shape_of(case, names)
    idx, vals = _arrays(entries, len(names), dtype)
    if name in case.get("dense", ()):
        return vals  # a full vector, as a dense 1-D array
    if len(names) == 1:
        return eb.Vector(idx[0], vals, shape[0])
    m = sp.csr_array((vals, (idx[0], idx[1])), shape=shape)
    return eb.Graph(m) if name in case.get("graph", ()) else m


def gb_object(case, name, gtype, mask=False):
    names, entries, dtype = case["inputs"][name]
    shape = shape_of(case, names)
    idx, vals = _arrays(entries, len(names), dtype)
    vals = vals.astype({"FP64": np.float64, "INT64": np.int64, "BOOL": bool}[gtype])
    if mask and gtype == "FP64":
        # The C API casts a mask value to bool, so -0.0 is false (as in edgeblas);
        # SuiteSparse tests the value's bytes instead, and takes -0.0 as true.
        vals = np.where(vals == 0, 0.0, vals)
    idx = [i.astype(np.uint64) for i in idx]
    # Built empty, then filled: from_coo would take a 0 dimension for "infer it".
    if len(names) == 1:
        v = gb.Vector(gtype, shape[0])
        v.build(idx[0], vals)
        return v
    m = gb.Matrix(gtype, shape[0], shape[1])
    m.build(idx[0], idx[1], vals)
    return m


def ref_type(case):
    """The reference's type: the input's own where every operator of the call means
    the same there (NATIVE), else FP64."""
    same = NATIVE[case["dtype"]]
    if same is None or all(op in same for op in case["ops"]):
        return GB_TYPE[case["dtype"]]
    return "FP64"


def gb_op(module, name):
    obj = module
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


# ----------------------------------------------------------------------------
# Results as {index tuple: value}


def from_eb(r):
    if isinstance(r, eb.Vector):
        return {(int(i),): v for i, v in zip(r.indices, r.values)}
    c = sp.coo_array(r)  # keeps explicit zeros
    return {(int(i), int(j)): v for i, j, v in zip(c.row, c.col, c.data)}


def from_gb(r):
    if isinstance(r, gb.Vector):
        i, v = r.to_coo()
        return {(int(a),): b for a, b in zip(i, v)}
    i, j, v = r.to_coo()
    return {(int(a), int(b)): c for a, b, c in zip(i, j, v)}


def same_value(a, b, exact, signed_zero=False):
    a, b = float(a), float(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if signed_zero and a == 0 and math.copysign(1, a) != math.copysign(1, b):
        return False
    if exact or math.isinf(a) or math.isinf(b):
        return a == b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def signed_zero_matters(case):
    """Whether 0.0 and -0.0 must agree too: not where MIN, MAX or ANY choose between
    equal values, since which zero SuiteSparse keeps of a tie depends on its kernel's
    order (the second operand of an operator, the later term of a product, the first of
    a reduction); tests/suite/conformance.rs pins edgeblas's rule, -0.0 in any order. Nor
    against an int64 or bool reference: edgeblas's float64 has -3 * 0 = -0.0."""
    if ref_type(case) != "FP64":
        return False
    return not any("min" in op or "max" in op or op.startswith("any") for op in case["ops"])


def compare(got, want, how, signed_zero=False):
    """None when they agree, else a description of the first differences."""
    if set(got) != set(want):
        extra = sorted(set(got) - set(want))[:5]
        missing = sorted(set(want) - set(got))[:5]
        return f"patterns differ: edgeblas has extra {extra}, lacks {missing}"
    bad = []
    for k in sorted(got):
        g, w = got[k], want[k]
        if how == "pattern":
            ok = True
        elif how == "any":  # ANY: some value of the group (the checker passes the set)
            ok = any(same_value(g, x, True) for x in w)
        else:
            ok = same_value(g, w, how == "exact", signed_zero)
        if not ok:
            bad.append((k, g, w))
    if bad:
        return "values differ (index, edgeblas, SuiteSparse): " + ", ".join(
            f"{k}: {g!r} vs {w!r}" for k, g, w in bad[:5])
    return None


# ----------------------------------------------------------------------------
# The operations: each builds the edgeblas call (as text, for the repro, and run) and
# the SuiteSparse reference.


def call_text(case):
    p = case["call"]
    args = ", ".join(p["args"])
    kw = ", ".join(f"{k}={v}" if k in p.get("objects", ()) else f"{k}={v!r}"
                   for k, v in p["kw"].items())
    return f"eb.{p['fn']}({args}{', ' if kw else ''}{kw})"


def run_eb(case):
    p = case["call"]
    objs = {name: eb_object(case, name) for name in case["inputs"]}
    for name, (dim, lst) in case.get("lists", {}).items():
        objs[name] = None if lst is None else np.array(lst, dtype=np.int64)
    args = [objs[a] for a in p["args"]]
    kw = {k: (objs[v] if k in p.get("objects", ()) else v) for k, v in p["kw"].items()}
    return getattr(eb, p["fn"])(*args, **kw)


def _mask_desc(kw, m):
    if m is None:
        return None
    m = m.S if kw.get("structural", True) else m.V
    return ~m if kw.get("complement", False) else m


def ref_product(case):
    """mxm, vxm, mxv: C<M> = C accum (A (+).(x) B)."""
    p = case["call"]
    kw = p["kw"]
    name = kw["semiring"]
    t = ref_type(case)
    a, b = (gb_object(case, n, t) for n in p["args"])
    sr = gb_op(semiring, GB_SEMIRING.get(name, name))
    out_t = {**{n: "BOOL" for n in BOOL_OUT}, **{n: "INT64" for n in INDEX_OUT}}.get(name, t)
    if name in ("lor_land", "or_and"):
        a, b = (x.dup(dtype="BOOL") for x in (a, b))
    expr = sr(a @ b)
    cname = kw.get("C") or kw.get("w")
    if cname is not None:
        # edgeblas converts C to the product's type: x != 0 for bool, a cast for index
        # semirings (non-negative values there).
        out = gb_object(case, cname, "FP64").dup(dtype=out_t)
    else:
        if p["fn"] == "mxm":
            out = gb.Matrix(out_t, a.nrows, b.ncols)
        elif p["fn"] == "vxm":
            out = gb.Vector(out_t, b.ncols)
        else:
            out = gb.Vector(out_t, a.nrows)
    mask = kw.get("mask")
    m = None if mask is None else gb_object(case, mask, t, mask=True)
    acc = kw.get("accum")
    acc_op = None if acc is None else gb_op(binary, GB_BINARY.get(acc, acc))
    try:
        out(mask=_mask_desc(kw, m), accum=acc_op) << expr
    except gb.exceptions.DimensionMismatch:
        # SuiteSparse 9.4.5 refuses GrB_mxv with a 0 inner dimension, a mask and an
        # accumulator; the product first, then the masked accumulate, is the same.
        out(mask=_mask_desc(kw, m), accum=acc_op) << expr.new(dtype=out_t)
    want = from_gb(out)
    if name == "any_pair":
        return want, "pattern"
    if name == "any_secondi":
        return want, ("secondi_any", a, b)
    # A float PLUS sums in an order of its own (edgeblas: ascending k); every other
    # monoid and multiply rounds once per entry, so agrees exactly.
    plus = name.startswith("plus_") and name != "plus_pair" and t == "FP64"
    return want, "close" if plus else "exact"


def ref_ewise(case):
    p = case["call"]
    t = ref_type(case)
    a, b = (gb_object(case, n, t) for n in p["args"])
    op = p["kw"]["op"]
    f = gb_op(binary, GB_BINARY.get(op, op))[t]
    r = a.ewise_add(b, f) if p["fn"] == "ewise_add" else a.ewise_mult(b, f)
    # new(dtype=t): a lone entry of ewise_add keeps its value, cast to the output type.
    return from_gb(r.new(dtype=t)), "close" if op == "pow" else "exact"


def ref_apply(case):
    p = case["call"]
    kw = p["kw"]
    t = ref_type(case)
    a = gb_object(case, p["args"][0], t)
    op = kw["op"]
    if op in INDEX_APPLY:
        r = a.apply(gb_op(indexunary, op)["INT64"], kw.get("thunk", 0) or 0).new()
    elif "left" in kw or "right" in kw:
        f = gb_op(binary, GB_BINARY.get(op, op))[t]
        x = kw.get("left", kw.get("right"))
        x = int(x) if t == "INT64" else x
        r = a.apply(f, left=x) if "left" in kw else a.apply(f, right=x)
        r = r.new(dtype=t)
    else:
        if t != "FP64" and op in ("minv", "sqrt", "exp", "log"):
            a = a.dup(dtype="FP64")
        r = a.apply(gb_op(unary, op)).new()
    return from_gb(r), "close" if op in ("exp", "log", "pow") else "exact"


GB_SELECT = {"value_eq": "valueeq", "value_ne": "valuene", "value_gt": "valuegt",
             "value_ge": "valuege", "value_lt": "valuelt", "value_le": "valuele"}


def ref_select(case):
    p = case["call"]
    t = ref_type(case)
    a = gb_object(case, p["args"][0], t)
    op, thunk = p["kw"]["op"], p["kw"]["thunk"]
    if op == "nonzero":
        r = select.valuene(a, 0)
    elif op in GB_SELECT:
        # The bindings compare against a float64 thunk.
        r = gb_op(select, GB_SELECT[op])(a.dup(dtype="FP64"), float(thunk))
        return {k: v for k, v in from_gb(r.new()).items()}, "exact"
    else:
        r = gb_op(select, op)(a, int(thunk))
    return from_gb(r.new()), "exact"


MONOID_EMPTY = {"plus": 0.0, "times": 1.0, "min": math.inf, "max": -math.inf,
                "lor": 0.0, "land": 1.0, "any": 0.0}


def ref_reduce(case):
    p = case["call"]
    fn, mon = p["fn"], p["kw"]["monoid"]
    t = ref_type(case)
    a = gb_object(case, p["args"][0], t)
    if mon in ("lor", "land"):
        a = a.dup(dtype="BOOL")
    how = "close" if mon in ("plus", "times") else "exact"
    if mon == "any":
        # ANY keeps some term: the reference lists each group's terms.
        groups = {}
        for k, v in from_gb(a).items():
            g = {"reduce_rows": (k[0],), "reduce_columns": (k[-1],)}.get(fn, ())
            groups.setdefault(g, []).append(v)
        if fn == "reduce_scalar":
            return {(): groups.get((), [0.0])}, "any"
        return groups, "any"
    m = gb_op(monoid, mon)
    if fn == "reduce_rows":
        return from_gb(a.reduce_rowwise(m).new()), how
    if fn == "reduce_columns":
        return from_gb(a.reduce_columnwise(m).new()), how
    s = a.reduce_scalar(m).new() if isinstance(a, gb.Matrix) else a.reduce(m).new()
    v = s.value
    return {(): MONOID_EMPTY[mon] if v is None else float(v)}, how


def ref_transpose(case):
    a = gb_object(case, case["call"]["args"][0], ref_type(case))
    return from_gb(a.T.new()), "exact"


def ref_extract(case):
    p = case["call"]
    a = gb_object(case, p["args"][0], ref_type(case))
    lists = case["lists"]

    def ix(name):
        lst = lists[name][1]
        return slice(None) if lst is None else np.array(lst, dtype=np.uint64)

    if isinstance(a, gb.Vector):
        return from_gb(a[ix("rows")].new()), "exact"
    return from_gb(a[ix("rows"), ix("cols")].new()), "exact"


REFERENCE = {
    "mxm": ref_product, "vxm": ref_product, "mxv": ref_product,
    "ewise_add": ref_ewise, "ewise_mult": ref_ewise,
    "apply": ref_apply, "select": ref_select,
    "reduce_rows": ref_reduce, "reduce_columns": ref_reduce, "reduce_scalar": ref_reduce,
    "transpose": ref_transpose, "extract": ref_extract,
}


def check(case):
    """None when edgeblas agrees with SuiteSparse on ``case``, else why not."""
    got = run_eb(case)
    if case["call"]["fn"] == "reduce_scalar":
        got = {(): got}
    else:
        got = from_eb(got)
    want, how = REFERENCE[case["call"]["fn"]](case)
    if isinstance(how, tuple):  # ANY.SECONDI: some k with A(i, k) and B(k, j)
        _, a, b = how
        pa, pb = set(from_gb(a)), set(from_gb(b))
        vec_a, vec_b = isinstance(a, gb.Vector), isinstance(b, gb.Vector)
        for key, k in got.items():
            i = () if vec_a else key[:1]
            j = () if vec_b else key[-1:]
            if (i + (int(k),)) not in pa or ((int(k),) + j) not in pb:
                return f"any_secondi gave k = {k} at {key}: no A(i, k), B(k, j) there"
        how = "pattern"
    return compare(got, want, how, signed_zero_matters(case))


# ----------------------------------------------------------------------------
# Shrinking and the repro


def shrink(case, why):
    """Smaller cases that still mismatch: lower each dimension, drop entries."""
    def still(c):
        try:
            return check(c)
        except Exception:  # a shrunk case either side refuses is no repro
            return None

    progress = True
    while progress:
        progress = False
        for d in list(case["dims"]):
            for smaller in sorted({0, case["dims"][d] // 2, case["dims"][d] - 1}):
                if not 0 <= smaller < case["dims"][d]:
                    continue
                c = restrict(case, d, smaller)
                w = still(c)
                if w is not None:
                    case, why, progress = c, w, True
                    break
        for name in list(case["inputs"]):
            for key in sorted(case["inputs"][name][1]):
                if key not in case["inputs"][name][1] or name in case.get("dense", ()):
                    continue
                c = without(case, name, key)
                w = still(c)
                if w is not None:
                    case, why, progress = c, w, True
    return case, why


def restrict(case, dim, size):
    c = dict(case, dims=dict(case["dims"], **{dim: size}), inputs={}, lists={})
    for name, (names, entries, dtype) in case["inputs"].items():
        keep = {k: v for k, v in entries.items()
                if all(k[t] < size for t, n in enumerate(names) if n == dim)}
        c["inputs"][name] = (names, keep, dtype)
    for name, (d, lst) in case.get("lists", {}).items():
        c["lists"][name] = (d, lst if lst is None or d != dim else [i for i in lst if i < size])
    return c


def without(case, name, key):
    names, entries, dtype = case["inputs"][name]
    e = {k: v for k, v in entries.items() if k != key}
    return dict(case, inputs=dict(case["inputs"], **{name: (names, e, dtype)}))


def repro(case):
    lines = ["import numpy as np, scipy.sparse as sp, edgeblas as eb"]
    for name, (names, entries, dtype) in case["inputs"].items():
        shape = shape_of(case, names)
        idx, vals = _arrays(entries, len(names), dtype)
        v = f"np.array({vals.tolist()!r}, dtype=np.{dtype})".replace("nan", "np.nan") \
            .replace("inf", "np.inf")
        if name in case.get("dense", ()):
            lines.append(f"{name} = {v}")
        elif len(names) == 1:
            lines.append(f"{name} = eb.Vector({idx[0].tolist()}, {v}, {shape[0]})")
        else:
            m = f"sp.csr_array(({v}, ({idx[0].tolist()}, {idx[1].tolist()})), shape={shape})"
            lines.append(f"{name} = eb.Graph({m})" if name in case.get("graph", ()) else
                         f"{name} = {m}")
    for name, (d, lst) in case.get("lists", {}).items():
        lines.append(f"{name} = {lst!r}")
    lines.append(f"got = {call_text(case)}")
    return "\n".join(lines)


def assert_agrees(case):
    why = check(case)
    if why is None:
        return
    small, small_why = shrink(case, why)
    raise AssertionError(
        f"edgeblas and SuiteSparse differ ({small_why}); dtype {case['dtype']}, reference "
        f"in {ref_type(small)}. Shrunk repro:\n{repro(small)}\n"
        f"(original mismatch: {why})"
    )


# ----------------------------------------------------------------------------
# The cases


def new_case(rng, fn, dims, dtype, inputs, ops, args, kw, objects=(), lists=None):
    return {"dims": dims, "dtype": dtype, "ops": ops, "inputs": inputs,
            "lists": lists or {},
            "call": {"fn": fn, "args": args, "kw": kw, "objects": objects}}


def random_dims(rng, *names):
    return {n: int(rng.choice(DIMS)) for n in names}


def product_case(rng, fn, name):
    dtype = str(rng.choice(DTYPES))
    dims = random_dims(rng, "m", "k", "n")
    shapes = {"mxm": (("m", "k"), ("k", "n"), ("m", "n")),
              "vxm": (("k",), ("k", "n"), ("n",)),
              "mxv": (("m", "k"), ("k",), ("m",))}[fn]
    inputs = {"A": operand(rng, dims, shapes[0], dtype),
              "B": operand(rng, dims, shapes[1], dtype)}
    args = ["A", "B"] if fn == "mxm" else (["x", "A"] if fn == "vxm" else ["A", "x"])
    extra = {}
    if fn == "vxm":
        inputs = {"x": inputs["A"], "A": inputs["B"]}
    elif fn == "mxv":
        inputs = {"A": inputs["A"], "x": inputs["B"]}
    if fn != "mxm" and rng.random() < 0.2:
        # x as a dense numpy array: every index an entry.
        inputs["x"] = operand(rng, dims, ("k",), dtype, density=1.0)
        extra["dense"] = {"x"}
    if fn == "mxm" and dims["m"] == dims["k"] and rng.random() < 0.5:
        extra["graph"] = {"A"}  # an eb.Graph: its kept copy of the matrix
    kw = {"semiring": name}
    objects = []
    ops = [name]
    if rng.random() < 0.6:
        inputs["M"] = operand(rng, dims, shapes[2], dtype)
        kw["mask"] = "M"
        kw["complement"] = bool(rng.random() < 0.5)
        kw["structural"] = bool(rng.random() < 0.5)
        objects.append("mask")
    # ANY.SECONDI's values are checked as valid indices, so no C to mix in.
    if rng.random() < 0.6 and name != "any_secondi":
        cname = "C" if fn == "mxm" else "w"
        if name in INDEX_OUT:
            c = operand(rng, dims, shapes[2], "int64")
            c = (c[0], {k: abs(int(v)) for k, v in c[1].items()}, "int64")
        else:
            c = operand(rng, dims, shapes[2], dtype)
        inputs[cname] = c
        kw[cname] = cname
        objects.append(cname)
        if rng.random() < 0.8:
            if name in BOOL_OUT:
                acc = str(rng.choice(["lor", "land", "lxor", "first", "second", "plus",
                                      "times", "min", "max"]))
            elif name in INDEX_OUT:
                acc = str(rng.choice(["min", "max", "plus", "first", "second"]))
            else:
                acc = str(rng.choice(["plus", "minus", "times", "div", "min", "max",
                                      "first", "second"]))
            kw["accum"] = acc
            ops.append(acc)
    return dict(new_case(rng, fn, dims, dtype, inputs, ops, args, kw, objects), **extra)


def cases(rng):
    """Every operation the bindings expose, many times over."""
    for _ in range(24):
        for name in SEMIRINGS:
            for fn in ("mxm", "vxm", "mxv"):
                yield product_case(rng, fn, name)
    for _ in range(16):
        for fn in ("ewise_add", "ewise_mult"):
            for op in BINARY:
                dtype = str(rng.choice(DTYPES))
                vec = rng.random() < 0.4
                dims = random_dims(rng, "m", "n")
                names = ("m",) if vec else ("m", "n")
                inputs = {"A": operand(rng, dims, names, dtype),
                          "B": operand(rng, dims, names, dtype)}
                yield new_case(rng, fn, dims, dtype, inputs, [op], ["A", "B"], {"op": op})
    for _ in range(16):
        for op in UNARY + BINARY + INDEX_APPLY:
            dtype = str(rng.choice(DTYPES))
            vec = rng.random() < 0.4
            dims = random_dims(rng, "m", "n")
            inputs = {"A": operand(rng, dims, ("m",) if vec else ("m", "n"), dtype)}
            kw = {"op": op}
            if op in BINARY:
                side = "left" if rng.random() < 0.5 else "right"
                kw[side] = float(rng.integers(-3, 4)) if rng.random() < 0.8 else 0.5
                # A bound float scalar on bool data: the reference runs in FP64.
                ops = [op, "bound"] if kw[side] == int(kw[side]) else [op, "fraction"]
            elif op in INDEX_APPLY:
                kw["thunk"] = int(rng.integers(-4, 5))
                ops = [op]
            else:
                ops = [op]
            yield new_case(rng, "apply", dims, dtype, inputs, ops, ["A"], kw)
    for _ in range(40):
        for op in SELECTS:
            dtype = str(rng.choice(DTYPES))
            vec = rng.random() < 0.5
            dims = random_dims(rng, "m", "n")
            inputs = {"A": operand(rng, dims, ("m",) if vec else ("m", "n"), dtype)}
            thunk = int(rng.integers(-4, 5))
            yield new_case(rng, "select", dims, dtype, inputs, [op], ["A"],
                           {"op": op, "thunk": thunk})
    for _ in range(16):
        for mon in MONOIDS:
            for fn in ("reduce_rows", "reduce_columns", "reduce_scalar"):
                dtype = str(rng.choice(DTYPES))
                vec = fn == "reduce_scalar" and rng.random() < 0.4
                dims = random_dims(rng, "m", "n")
                inputs = {"A": operand(rng, dims, ("m",) if vec else ("m", "n"), dtype)}
                yield new_case(rng, fn, dims, dtype, inputs, [mon], ["A"], {"monoid": mon})
    for _ in range(60):
        dtype = str(rng.choice(DTYPES))
        dims = random_dims(rng, "m", "n")
        yield new_case(rng, "transpose", dims, dtype,
                       {"A": operand(rng, dims, ("m", "n"), dtype)}, [], ["A"], {})
    for _ in range(150):
        dtype = str(rng.choice(DTYPES))
        dims = random_dims(rng, "m", "n")
        vec = rng.random() < 0.4
        names = ("m",) if vec else ("m", "n")

        def index_list(d):
            if rng.random() < 0.25 or dims[d] == 0:
                return None if rng.random() < 0.7 else []
            return [int(i) for i in rng.integers(0, dims[d], int(rng.integers(0, 7)))]

        lists = {"rows": ("m", index_list("m"))}
        kw = {"rows": "rows"}
        if not vec:
            lists["cols"] = ("n", index_list("n"))
            kw["cols"] = "cols"
        yield new_case(rng, "extract", dims, dtype,
                       {"A": operand(rng, dims, names, dtype)}, [], ["A"], kw,
                       objects=tuple(kw), lists=lists)


def grouped():
    rng = np.random.default_rng(SEED)
    out = {}
    for c in cases(rng):
        out.setdefault(c["call"]["fn"], []).append(c)
    return out


CASES = grouped()


@pytest.mark.parametrize("fn", sorted(CASES))
def test_agrees_with_suitesparse(fn):
    for case in CASES[fn]:
        assert_agrees(case)


def test_the_issues_examples():
    """Issue 36: select on a vector (a column) and the signed-zero tie of MAX."""
    v = eb.Vector([0, 3], np.array([5.0, 0.0]), 4)
    assert eb.select(v, "tril", 0).indices.tolist() == [0, 3]
    assert eb.select(v, "triu", 0).indices.tolist() == [0]
    assert eb.apply(v, "rowindex", thunk=0).values.tolist() == [0, 3]
    assert eb.apply(v, "colindex", thunk=0).values.tolist() == [0, 0]
    a = sp.csr_array((np.array([1.0, -1.0]), ([0, 0], [0, 1])), shape=(1, 2))
    b = sp.csr_array((np.array([0.0, 0.0]), ([0, 1], [0, 0])), shape=(2, 1))
    c = sp.csr_array((np.array([np.inf]), ([0], [0])), shape=(1, 1))
    got = eb.mxm(a, b, "max_times", accum="div", C=c)
    ga = gb.Matrix.from_coo([0, 0], [0, 1], [1.0, -1.0], nrows=1, ncols=2)
    gbm = gb.Matrix.from_coo([0, 1], [0, 0], [0.0, 0.0], nrows=2, ncols=1)
    gc = gb.Matrix.from_coo([0], [0], [np.inf], nrows=1, ncols=1)
    gc(accum=binary.truediv) << semiring.max_times(ga @ gbm)
    assert got.toarray()[0, 0] == gc[0, 0].value == -np.inf
    for op in ("tril", "triu", "diag", "offdiag"):
        want = from_gb(gb_op(select, op)(gb.Vector.from_coo([0, 3], [5.0, 0.0], size=4), 0)
                       .new())
        assert from_eb(eb.select(v, op, 0)) == want, op
