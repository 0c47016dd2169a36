//! The input of the algorithm examples: the graph file named on the command line (read
//! as undirected, or as stored with `--directed` after it), or else a Graph500 R-MAT
//! graph of scale 14.

use edgeblas::generate::rmat::Rmat;
use edgeblas::io::{ReadOptions, read_graph};
use edgeblas::prelude::*;

/// The graph and whether it is symmetric (`A = A'`).
pub fn graph() -> edgeblas::Result<(Csr<()>, bool)> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let directed = args.iter().any(|a| a == "--directed");
    match args.iter().find(|a| !a.starts_with("--")) {
        Some(path) => {
            let opts = ReadOptions {
                undirected: !directed,
                ..ReadOptions::default()
            };
            let g = read_graph(path.as_ref(), &opts)?;
            let symmetric = !g.directed || algo::is_symmetric_pattern(&g.adjacency);
            Ok((g.adjacency, symmetric))
        }
        None => Ok((
            Rmat {
                scale: 14,
                undirected: true,
                ..Rmat::default()
            }
            .generate()?,
            true,
        )),
    }
}
