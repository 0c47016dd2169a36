// TEMPORARY profiling harness, not to be committed.
use edgeblas::algebra::{Min, MinSecond};
use edgeblas::vector::Vector;
use rayon::prelude::*;
use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let g = edgeblas::io::read_graph(std::path::Path::new(&args[1]), &Default::default()).unwrap();
    let a = g.adjacency.pattern();
    let n = a.nrows();
    let gp: Vec<u32> = (0..n as u32).map(|i| i / 3).collect();
    let gpv: Vector<u32> = Vector::from_dense(gp.clone());
    let d0 = edgeblas::descriptor::Descriptor::DEFAULT;
    let (off, cols) = (a.offsets(), a.indices());
    for rep in 0..5 {
        let mut mngp: Vector<u32> = Vector::from_dense(gp.clone());
        let t = Instant::now();
        edgeblas::ops::mxv(
            &mut mngp,
            None,
            Some(&Min::<u32>::new()),
            MinSecond::<u32>::new(),
            &a,
            &gpv,
            &d0,
        );
        let t1 = t.elapsed().as_secs_f64() * 1e3;
        let mut out = gp.clone();
        let t = Instant::now();
        out.par_chunks_mut(1024).enumerate().for_each(|(c, ch)| {
            for (l, o) in ch.iter_mut().enumerate() {
                let i = c * 1024 + l;
                let r = &cols[off[i] as usize..off[i + 1] as usize];
                let mut m = *o;
                for &k in r {
                    m = m.min(unsafe { *gp.get_unchecked(k as usize) });
                }
                *o = m;
            }
        });
        let t2 = t.elapsed().as_secs_f64() * 1e3;
        // variant: hand loop + dyn accum per row
        let acc: &dyn edgeblas::algebra::BinaryOp<u32, u32, Output = u32> = &Min::<u32>::new();
        let mut out3 = gp.clone();
        let t = Instant::now();
        out3.par_chunks_mut(1024).enumerate().for_each(|(c, ch)| {
            for (l, o) in ch.iter_mut().enumerate() {
                let i = c * 1024 + l;
                let r = &cols[off[i] as usize..off[i + 1] as usize];
                if let Some((&k0, rest)) = r.split_first() {
                    let mut m = unsafe { *gp.get_unchecked(k0 as usize) };
                    for &k in rest {
                        m = m.min(unsafe { *gp.get_unchecked(k as usize) });
                        if m == 0 {
                            break;
                        }
                    }
                    *o = acc.apply(*o, m);
                }
            }
        });
        let t3 = t.elapsed().as_secs_f64() * 1e3;
        eprintln!("   dyn+first+terminal {t3:.3} ms, same {}", out3 == out);
        let Vector::Dense(d) = &mngp else { panic!() };
        eprintln!(
            "rep {rep}: mxv {t1:.3} ms, hand {t2:.3} ms, same {}",
            d.as_slice() == out.as_slice()
        );
    }
}
