//! The reference figures of ../shared/data/real: BFS from a given source, shared by the
//! library's BFS tests and the command line's.

/// (file, source id, reached, max depth, depth sum) from ../shared/data/real/README.md.
pub const FIGURES: &[(&str, u64, usize, u32, u64)] = &[
    ("email-Eu-core.txt", 0, 965, 4, 2_275),
    ("wiki-Vote.txt", 30, 2_316, 5, 6_920),
    ("ego-Facebook.txt", 0, 4_039, 6, 11_428),
    ("p2p-Gnutella31.txt.gz", 0, 60_826, 25, 514_821),
    ("cit-HepPh.txt.gz", 1, 20_507, 29, 226_202),
    ("soc-Epinions1.txt.gz", 0, 47_676, 9, 170_249),
    ("soc-Slashdot0902.txt.gz", 0, 82_168, 8, 259_462),
    ("web-NotreDame.txt.gz", 0, 325_729, 49, 2_787_254),
    ("Lederberg.mtx", 2, 7_176, 10, 24_259),
    ("usroads.mtx.gz", 2, 303, 58, 10_784),
    ("luxembourg_osm.mtx.gz", 2, 114_599, 1_033, 43_705_056),
    ("USA-road-NY-hops.mtx.gz", 1, 264_346, 619, 90_771_609),
    (
        "USA-road-FLA-hops.mtx.gz",
        1,
        1_070_376,
        1_920,
        1_206_725_808,
    ),
    ("rome99.gr", 2958, 3_353, 47, 89_625),
];

/// ego-Facebook is undirected but stored one way per edge.
pub fn undirected_edge_list(file: &str) -> bool {
    file == "ego-Facebook.txt"
}
