#!/usr/bin/env python3
"""Seed corpora for the fuzz targets from ../shared/data: small files whole, and slices
(at line boundaries) of the big ones, each at most 4 KiB; for `degrees`, the degree
histograms of real/degrees/ as they are and as sequences and directed forms.

  python scripts/fuzz_seeds.py OUT_DIR      # then: cargo fuzz cmin TARGET OUT_DIR/TARGET
"""
import gzip
import os
import struct
import sys

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data")
LIMIT = 4096


def text(path):
    raw = open(path, "rb").read()
    return gzip.decompress(raw) if path.endswith(".gz") else raw


def slices(body, header_lines=0):
    """The head of a file, and a few slices from its middle with the header kept."""
    lines = body.split(b"\n")
    head = b"\n".join(lines[:header_lines])
    out = [body[:LIMIT]]
    for frac in (0.25, 0.5, 0.9):
        start = max(header_lines, int(len(lines) * frac))
        part = b"\n".join(lines[start:start + 60])
        out.append(((head + b"\n") if head else b"") + part[: LIMIT - len(head)])
    return out


def main():
    out = sys.argv[1]
    seeds = {t: [] for t in ["matrix_market", "edge_list", "edge_list_gz", "dimacs",
                             "graphalytics", "adjacency", "binary", "degrees"]}
    real = os.path.join(DATA, "real")
    for name in sorted(os.listdir(real)):
        p = os.path.join(real, name)
        if os.path.isdir(p):
            continue
        body = text(p)
        if ".mtx" in name:
            seeds["matrix_market"] += slices(body, header_lines=2)
        elif name.endswith(".gr"):
            seeds["dimacs"] += slices(body, header_lines=7)
        else:
            s = slices(body)
            seeds["edge_list"] += s
            seeds["edge_list_gz"] += s
    g = os.path.join(DATA, "graphalytics")
    for name in sorted(os.listdir(g)):
        p = os.path.join(g, name)
        if name.endswith(".e"):
            v = open(p[:-2] + ".v", "rb").read()
            seeds["graphalytics"].append(open(p, "rb").read()[:LIMIT] + b"\0" + v[:LIMIT])
        elif name.endswith("-input"):
            seeds["adjacency"].append(open(p, "rb").read()[:LIMIT])
    # A tiny valid binary file, header fields as edgeblas writes them, is made by the
    # fuzz run itself from the other corpora (every Ok graph is re-encoded); seed one
    # empty-ish candidate so the target starts with the magic.
    seeds["binary"].append(b"EDGEBLAS" + struct.pack("<I", 1) + bytes(64))
    # Chung-Lu degree distributions: each `degree,count` histogram as it is, the same
    # as a degree sequence (one degree per line, the small ones), and directed forms
    # (`out,in,count` and `out in` per line) made from the in/out pairs of one graph.
    deg = os.path.join(real, "degrees")
    hists = {}
    for name in sorted(os.listdir(deg)):
        body = open(os.path.join(deg, name), "rb").read()
        seeds["degrees"].append(body[:LIMIT])
        rows = [tuple(int(x) for x in l.split(b",")) for l in body.split(b"\n")[1:] if l.strip()]
        hists[name] = rows
        seq = b"".join(b"%d\n" % d for d, c in rows for _ in range(c))
        if len(seq) <= LIMIT:
            seeds["degrees"].append(b"# " + name.encode() + b" as a sequence\n" + seq)
    for name, rows in sorted(hists.items()):
        if ".in_degree" not in name:
            continue
        outs = hists.get(name.replace(".in_degree", ".out_degree"))
        if not outs:
            continue
        pairs = list(zip(sorted(d for d, c in outs for _ in range(c)),
                         sorted(d for d, c in rows for _ in range(c))))
        if len(pairs) * 8 <= LIMIT:
            seeds["degrees"].append(b"".join(b"%d %d\n" % p for p in pairs))
        trip = b"out,in,count\n" + b"".join(
            b"%d,%d,%d\n" % (o, i, c) for (o, _), (i, c) in zip(outs, rows))
        seeds["degrees"].append(trip[:LIMIT])
    for t, items in seeds.items():
        d = os.path.join(out, t)
        os.makedirs(d, exist_ok=True)
        for i, b in enumerate(items):
            with open(os.path.join(d, f"seed-{i:03}"), "wb") as f:
                f.write(b)
        print(t, len(items))


if __name__ == "__main__":
    main()
