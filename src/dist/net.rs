//! [`Net`]: the communicator of a distributed run, with a count of the bytes and messages
//! this rank hands to MPI for the other ranks.
//!
//! # What is counted
//! The payload addressed to other ranks, as a direct exchange would send it; the
//! algorithm's traffic, not the wire's (MPI's own headers and its choice of tree or ring
//! are not seen):
//!
//! | call | bytes | messages |
//! |---|---|---|
//! | [`Net::alltoallv`] | the counts (4 bytes) and the elements for every other rank | `P - 1` for the counts, one per other rank with elements |
//! | [`Net::allgatherv`] | the length (4 bytes) and this rank's part, times `P - 1` | `P - 1` for the lengths, `P - 1` more when the part is not empty |
//! | [`Net::allreduce_sum`], [`Net::allreduce_sum_f64`], [`Net::broadcast_bytes`] | the buffer times `ceil(log2 P)` | `ceil(log2 P)` (recursive doubling, a binomial tree) |
//! | [`Net::gatherv_root`] | the length and this rank's part (none at the root) | two |
//! | [`Net::broadcast_vec`] | as [`Net::broadcast_bytes`], at rank 0 | as [`Net::broadcast_bytes`] |
//! | [`Net::send_to`] | the elements | one |
//!
//! Counts must not exceed `i32::MAX` elements per rank in one call (MPI's `int`
//! counts); the callers here stay far below that at the sizes one node can hold.

use std::cell::Cell;
use std::rc::Rc;

use mpi::Count;
use mpi::collective::SystemOperation;
use mpi::datatype::{Equivalence, Partition, PartitionMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

/// Bytes and messages sent, as counted by [`Net`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traffic {
    /// Payload bytes addressed to other ranks.
    pub bytes: u64,
    /// Messages addressed to other ranks.
    pub messages: u64,
}

impl std::ops::Sub for Traffic {
    type Output = Traffic;
    fn sub(self, o: Traffic) -> Traffic {
        Traffic {
            bytes: self.bytes - o.bytes,
            messages: self.messages - o.messages,
        }
    }
}

/// The communicator of a distributed run and the traffic this rank sent through it.
/// Used from one thread (MPI initialized as `Funneled`: rayon workers compute, the main
/// thread communicates).
pub struct Net {
    world: SimpleCommunicator,
    rank: usize,
    size: usize,
    /// Shared with the sub-communicators made by [`Net::split`], so that what they send
    /// counts here too.
    sent: Rc<Cell<Traffic>>,
}

impl std::fmt::Debug for Net {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Net")
            .field("rank", &self.rank)
            .field("size", &self.size)
            .field("sent", &self.sent.get())
            .finish()
    }
}

fn counts_of(n: usize) -> Count {
    Count::try_from(n).expect("an MPI message of more than i32::MAX elements")
}

/// `buf`, or when it is empty an empty slice of `spare`: never the dangling address of an
/// empty `Vec<u8>`, which is 1, OpenMPI's `MPI_IN_PLACE`.
fn real_ptr<'a, T>(buf: &'a [T], spare: &'a [T; 1]) -> &'a [T] {
    if buf.is_empty() { &spare[..0] } else { buf }
}

fn displs(counts: &[Count]) -> Vec<Count> {
    let mut out = Vec::with_capacity(counts.len());
    let mut acc: Count = 0;
    for &c in counts {
        out.push(acc);
        acc = acc
            .checked_add(c)
            .expect("an MPI exchange of more than i32::MAX elements");
    }
    out
}

impl Net {
    /// Wraps a communicator (usually `universe.world()`).
    pub fn new(world: SimpleCommunicator) -> Net {
        let rank = world.rank() as usize;
        let size = world.size() as usize;
        Net {
            world,
            rank,
            size,
            sent: Rc::new(Cell::new(Traffic::default())),
        }
    }

    /// The ranks that pass the same `color`, ordered by `key` (MPI_Comm_split): a
    /// processor row or column of a 2-D grid. Collective over this `Net`. What the new
    /// `Net` sends is counted in this one's [`Net::sent`] too.
    pub fn split(&self, color: u32, key: u32) -> Net {
        use mpi::topology::Color;
        let c = self
            .world
            .split_by_color_with_key(Color::with_value(color as i32), key as i32)
            .expect("every rank passes a color, so every rank gets a communicator");
        let rank = c.rank() as usize;
        let size = c.size() as usize;
        Net {
            world: c,
            rank,
            size,
            sent: Rc::clone(&self.sent),
        }
    }

    /// This process's rank.
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// The number of ranks, `P`.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Whether this is rank 0, the one that reads, writes and prints.
    pub fn is_root(&self) -> bool {
        self.rank == 0
    }

    /// What this rank has sent so far.
    pub fn sent(&self) -> Traffic {
        self.sent.get()
    }

    fn count(&self, bytes: u64, messages: u64) {
        let t = self.sent.get();
        self.sent.set(Traffic {
            bytes: t.bytes + bytes,
            messages: t.messages + messages,
        });
    }

    fn log2_size(&self) -> u64 {
        (self.size as u64).next_power_of_two().trailing_zeros() as u64
    }

    /// Sends `out[r]` to every rank `r` and returns what every rank sent to this one,
    /// concatenated in rank order (MPI_Alltoallv, after an MPI_Alltoall of the counts).
    pub fn alltoallv<T: Equivalence + Copy + Default>(&self, out: &[Vec<T>]) -> Vec<T> {
        assert_eq!(out.len(), self.size, "alltoallv: one buffer per rank");
        let counts: Vec<usize> = out.iter().map(Vec::len).collect();
        let sbuf: Vec<T> = out.iter().flatten().copied().collect();
        self.alltoallv_flat(&sbuf, &counts)
    }

    /// [`Net::alltoallv`] with the buffers laid end to end in `sbuf`: the first
    /// `counts[0]` elements for rank 0, the next `counts[1]` for rank 1, and so on.
    pub fn alltoallv_flat<T: Equivalence + Copy + Default>(
        &self,
        sbuf: &[T],
        counts: &[usize],
    ) -> Vec<T> {
        assert_eq!(counts.len(), self.size, "alltoallv: one count per rank");
        assert_eq!(
            counts.iter().sum::<usize>(),
            sbuf.len(),
            "alltoallv: counts"
        );
        let send_counts: Vec<Count> = counts.iter().map(|&c| counts_of(c)).collect();
        let mut recv_counts = vec![0 as Count; self.size];
        self.world
            .all_to_all_into(&send_counts[..], &mut recv_counts[..]);
        let sd = displs(&send_counts);
        let rd = displs(&recv_counts);
        let total: usize = recv_counts.iter().map(|&c| c as usize).sum();
        let mut rbuf = vec![T::default(); total];
        let (spare, mut rspare) = ([T::default()], [T::default()]);
        {
            let s = Partition::new(real_ptr(sbuf, &spare), &send_counts[..], &sd[..]);
            let rb: &mut [T] = if rbuf.is_empty() {
                &mut rspare[..0]
            } else {
                &mut rbuf[..]
            };
            let mut r = PartitionMut::new(rb, &recv_counts[..], &rd[..]);
            self.world.all_to_all_varcount_into(&s, &mut r);
        }
        // The counts: 4 bytes to every other rank; then the payload.
        let size = std::mem::size_of::<T>() as u64;
        let others = self.size as u64 - 1;
        let (mut bytes, mut messages) = (4 * others, others);
        for (r, &c) in counts.iter().enumerate() {
            if r != self.rank && c > 0 {
                bytes += c as u64 * size;
                messages += 1;
            }
        }
        self.count(bytes, messages);
        rbuf
    }

    /// Every rank's `mine`, concatenated in rank order, on every rank (MPI_Allgatherv,
    /// after an MPI_Allgather of the lengths).
    pub fn allgatherv<T: Equivalence + Copy + Default>(&self, mine: &[T]) -> Vec<T> {
        let c = counts_of(mine.len());
        let mut counts = vec![0 as Count; self.size];
        self.world.all_gather_into(&c, &mut counts[..]);
        let d = displs(&counts);
        let total: usize = counts.iter().map(|&c| c as usize).sum();
        let mut rbuf = vec![T::default(); total];
        let (spare, mut rspare) = ([T::default()], [T::default()]);
        {
            let rb: &mut [T] = if rbuf.is_empty() {
                &mut rspare[..0]
            } else {
                &mut rbuf[..]
            };
            let mut r = PartitionMut::new(rb, &counts[..], &d[..]);
            self.world
                .all_gather_varcount_into(real_ptr(mine, &spare), &mut r);
        }
        let others = self.size as u64 - 1;
        let bytes = mine.len() as u64 * std::mem::size_of::<T>() as u64 * others + 4 * others;
        self.count(bytes, if mine.is_empty() { 0 } else { others } + others);
        rbuf
    }

    /// The element-wise sum over the ranks of `x`, on every rank (MPI_Allreduce).
    pub fn allreduce_sum(&self, x: &[u64]) -> Vec<u64> {
        let mut out = vec![0u64; x.len()];
        self.world
            .all_reduce_into(x, &mut out[..], SystemOperation::sum());
        self.count(8 * x.len() as u64 * self.log2_size(), self.log2_size());
        out
    }

    /// The element-wise sum over the ranks of `x`, on every rank (MPI_Allreduce; the
    /// order of the additions is MPI's, so the last bits may differ from a sum on one
    /// process).
    pub fn allreduce_sum_f64(&self, x: &[f64]) -> Vec<f64> {
        let mut out = vec![0f64; x.len()];
        self.world
            .all_reduce_into(x, &mut out[..], SystemOperation::sum());
        self.count(8 * x.len() as u64 * self.log2_size(), self.log2_size());
        out
    }

    /// The maximum over the ranks of `x`, on every rank.
    pub fn allreduce_max(&self, x: u64) -> u64 {
        let mut out = 0u64;
        self.world
            .all_reduce_into(&x, &mut out, SystemOperation::max());
        self.count(8 * self.log2_size(), self.log2_size());
        out
    }

    /// Rank 0's `data` on every rank ([`Net::broadcast_vec`] of bytes). Other ranks pass
    /// anything (it is ignored).
    pub fn broadcast_bytes(&self, data: Vec<u8>) -> Vec<u8> {
        self.broadcast_vec(data)
    }

    /// Rank 0's `values` on every rank.
    pub fn broadcast_u64s(&self, values: &[u64]) -> Vec<u64> {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.broadcast_bytes(bytes)
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect()
    }

    /// [`Net::gatherv_root`] of a vector this rank gives up: on one rank, that vector
    /// itself (no copy).
    pub fn gatherv_root_owned<T: Equivalence + Copy + Default>(
        &self,
        mine: Vec<T>,
    ) -> Option<Vec<T>> {
        if self.size == 1 {
            return Some(mine);
        }
        self.gatherv_root(&mine)
    }

    /// Every rank's `mine`, concatenated in rank order, at rank 0 (`Some` there, `None`
    /// elsewhere; MPI_Gatherv after an MPI_Gather of the lengths).
    pub fn gatherv_root<T: Equivalence + Copy + Default>(&self, mine: &[T]) -> Option<Vec<T>> {
        let root = self.world.process_at_rank(0);
        let c = counts_of(mine.len());
        let (spare, mut rspare) = ([T::default()], [T::default()]);
        let mine = real_ptr(mine, &spare);
        if self.is_root() {
            let mut counts = vec![0 as Count; self.size];
            root.gather_into_root(&c, &mut counts[..]);
            let d = displs(&counts);
            let total: usize = counts.iter().map(|&c| c as usize).sum();
            let mut rbuf = vec![T::default(); total];
            {
                let rb: &mut [T] = if rbuf.is_empty() {
                    &mut rspare[..0]
                } else {
                    &mut rbuf[..]
                };
                let mut r = PartitionMut::new(rb, &counts[..], &d[..]);
                root.gather_varcount_into_root(mine, &mut r);
            }
            Some(rbuf)
        } else {
            root.gather_into(&c);
            root.gather_varcount_into(mine);
            self.count(4 + mine.len() as u64 * std::mem::size_of::<T>() as u64, 2);
            None
        }
    }

    /// Sends `data` to rank `to` (MPI_Send; [`Net::receive_from`] there).
    pub fn send_to<T: Equivalence + Copy + Default>(&self, to: usize, data: &[T]) {
        let spare = [T::default()];
        self.world
            .process_at_rank(to as i32)
            .send(real_ptr(data, &spare));
        self.count(data.len() as u64 * std::mem::size_of::<T>() as u64, 1);
    }

    /// What rank `from` sends with [`Net::send_to`] (MPI_Probe for the length, then
    /// MPI_Recv).
    pub fn receive_from<T: Equivalence>(&self, from: usize) -> Vec<T> {
        self.world.process_at_rank(from as i32).receive_vec::<T>().0
    }

    /// Rank 0's `data` on every rank (its length, then the elements, in pieces within
    /// MPI's `int` counts); other ranks pass anything. One rank returns `data` as it is.
    pub fn broadcast_vec<T: Equivalence + Copy + Default>(&self, data: Vec<T>) -> Vec<T> {
        if self.size == 1 {
            return data;
        }
        let root = self.world.process_at_rank(0);
        let mut len = data.len() as u64;
        root.broadcast_into(&mut len);
        let mut buf = if self.is_root() {
            data
        } else {
            vec![T::default(); len as usize]
        };
        for piece in buf.chunks_mut(1 << 28) {
            root.broadcast_into(piece);
        }
        if self.is_root() {
            let bytes = 8 + len * std::mem::size_of::<T>() as u64;
            self.count(bytes * self.log2_size(), 2 * self.log2_size());
        }
        buf
    }

    /// Waits for every rank.
    pub fn barrier(&self) {
        self.world.barrier();
    }

    /// Makes every rank agree on the outcome of work that may fail on some ranks (rank 0
    /// reading a file, say), before any collective call that depends on it: a maximum
    /// over the ranks of a failure flag, then the first failing rank's message. Every
    /// rank returns `Ok` with its own value when none failed, and `Err` otherwise: the
    /// message on rank 0 (which prints it), [`Failed::Elsewhere`] on the others (which
    /// stay quiet), so one error is printed and every rank exits non-zero.
    pub fn agree<T>(&self, local: crate::Result<T>) -> Result<T, Failed> {
        let mine = match &local {
            Ok(_) => 0,
            Err(_) => self.size as u64 - self.rank as u64,
        };
        let worst = self.allreduce_max(mine);
        if worst == 0 {
            return Ok(local.unwrap_or_else(|_| unreachable!("no rank failed")));
        }
        let first = self.size - worst as usize;
        // The failing rank's message travels to rank 0.
        let msg = match &local {
            Err(e) if self.rank == first => e.to_string().into_bytes(),
            _ => Vec::new(),
        };
        let all = self.gatherv_root(&msg);
        match all {
            Some(bytes) => Err(Failed::Here(String::from_utf8_lossy(&bytes).into_owned())),
            None => Err(Failed::Elsewhere),
        }
    }
}

/// A failure every rank agreed on through [`Net::agree`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failed {
    /// On rank 0: the message to print.
    Here(String),
    /// On the other ranks: rank 0 prints the message.
    Elsewhere,
}

impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failed::Here(m) => f.write_str(m),
            Failed::Elsewhere => f.write_str("failed (rank 0 reports why)"),
        }
    }
}

impl std::error::Error for Failed {}
