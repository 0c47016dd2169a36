//! Each thread's idle workspaces, kept between calls.
//!
//! A dense accumulator as long as the output costs a page fault per page it touches
//! when it is new; for a product over a long output with little work (one bucket of a
//! shortest-path search, a road graph's square) that is most of the product's time.
//! So the kernels borrow their workspaces from the thread's pool and hand them back
//! when done. At most [`POOL_KEEP`] are kept per thread, of any types together; each is
//! as long as the longest output it served.

use std::any::Any;
use std::cell::RefCell;
use std::ops::{Deref, DerefMut};

thread_local! {
    static POOL: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

/// Idle workspaces a thread keeps (of any types together).
const POOL_KEEP: usize = 4;

/// A workspace borrowed from the thread's pool, returned to it on drop.
pub(crate) struct Pooled<W: 'static> {
    ws: Option<W>,
    keep: bool,
}

impl<W: 'static> Pooled<W> {
    /// A pooled workspace of type `W` for which `fits` holds, else `make()`.
    pub(crate) fn take(fits: impl Fn(&W) -> bool, make: impl FnOnce() -> W) -> Self {
        let found = POOL.with(|p| {
            let mut p = p.borrow_mut();
            let at = p
                .iter()
                .position(|b| b.downcast_ref::<W>().is_some_and(&fits))?;
            p.swap_remove(at).downcast::<W>().ok()
        });
        Pooled {
            ws: Some(found.map_or_else(make, |b| *b)),
            keep: true,
        }
    }

    /// `ws`, not taken from the pool and not returned to it (an empty workspace).
    pub(crate) fn unpooled(ws: W) -> Self {
        Pooled {
            ws: Some(ws),
            keep: false,
        }
    }
}

impl<W: 'static> Deref for Pooled<W> {
    type Target = W;
    fn deref(&self) -> &W {
        self.ws.as_ref().expect("present until drop")
    }
}

impl<W: 'static> DerefMut for Pooled<W> {
    fn deref_mut(&mut self) -> &mut W {
        self.ws.as_mut().expect("present until drop")
    }
}

impl<W: 'static> Drop for Pooled<W> {
    fn drop(&mut self) {
        if let Some(ws) = self.ws.take()
            && self.keep
        {
            POOL.with(|p| {
                let mut p = p.borrow_mut();
                if p.len() >= POOL_KEEP {
                    p.remove(0);
                }
                p.push(Box::new(ws));
            });
        }
    }
}
