//! The contract every backend implements and the layers above drive: a fused BFS level
//! ([`BfsLevels`], its [`Direction`] and [`StepCounts`]) and how a device spreads a
//! Chung-Lu plan ([`Schedule`]). It lives here, under `ops` and `cuda`, so that no backend
//! imports anything above it; `ops` and `cuda` re-export it under their own names.

/// The direction of one BFS level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Top-down: `q<!visited> = q min.secondi A`, the frontier's out-edges (vxm).
    Push,
    /// Bottom-up: `q<!visited> = A' min.secondi q`, the unvisited vertices' in-edges,
    /// each stopping at its first frontier parent (mxv).
    Pull,
}

impl Direction {
    /// `"push"` or `"pull"`.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Push => "push",
            Direction::Pull => "pull",
        }
    }
}

/// What one level produced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepCounts {
    /// Vertices of the new frontier.
    pub vertices: usize,
    /// Sum of the out-degrees of the new frontier.
    pub out_edges: u64,
    /// Arcs the level looked at (all out-arcs of the frontier in push; in pull, the
    /// in-arcs scanned up to each early exit).
    pub examined: u64,
}

/// A breadth-first search in progress, one fused level at a time, wherever its state
/// lives: [`crate::ops::BfsState`] on the CPU, the CUDA backend's device state on a GPU.
/// [`crate::algo::bfs::bfs`] and its GPU form drive any of them through the same
/// switching policy, so every backend takes the same directions and returns the same
/// parents and levels.
pub trait BfsLevels {
    /// The level of the current frontier.
    fn depth(&self) -> u32;
    /// Vertices in the frontier.
    fn frontier_vertices(&self) -> usize;
    /// Sum of the out-degrees of the frontier.
    fn frontier_edges(&self) -> u64;
    /// Vertices reached so far (the frontier included).
    fn visited_vertices(&self) -> usize;
    /// Whether `v` has been reached. Only asked of the search's target, if any.
    ///
    /// # Errors
    /// A device error.
    fn is_reached(&mut self, v: usize) -> crate::Result<bool>;
    /// Expands the frontier one level in direction `dir`.
    ///
    /// # Errors
    /// A device error.
    fn step(&mut self, dir: Direction) -> crate::Result<StepCounts>;
    /// What the search leaves: `(parents, levels)`, `u32::MAX` where unreached, in the
    /// backend's memory.
    type Output;
    /// Ends the search.
    ///
    /// # Errors
    /// A device error.
    fn finish(self) -> crate::Result<Self::Output>;
}

/// How [`crate::cuda::chung_lu`] spreads a plan's chunks over the device: the three schemes of Alam
/// and Perumalla. Every schedule gives the same graph, byte for byte the CPU's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Schedule {
    /// Uniform static: chunks dealt to a fixed grid of threads in turn.
    Uniform,
    /// Load-balanced static: each thread a run of consecutive chunks of equal cost under
    /// the model `c = alpha + beta m` (the plan's lanes).
    #[default]
    Balanced,
    /// Dynamic: the host launches the chunks of batches of tasks asynchronously over
    /// several streams.
    Dynamic,
}

impl Schedule {
    /// `"uniform"`, `"balanced"` or `"dynamic"`.
    pub fn name(self) -> &'static str {
        match self {
            Schedule::Uniform => "uniform",
            Schedule::Balanced => "balanced",
            Schedule::Dynamic => "dynamic",
        }
    }
}
