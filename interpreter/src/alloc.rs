//! The global allocator of the `muster` binary and the benchmarks: mimalloc, asked for memory
//! the cheap way whenever the cheap way is aligned enough.
//!
//! A game makes about half a million small allocations (script values). The `mimalloc` crate's
//! allocator hands every request to `mi_malloc_aligned`. In mimalloc 3 that path takes about 1.7
//! times the instructions of the plain `mi_malloc` (callgrind, here), and a request whose block
//! size is not a power of two is over-allocated by its alignment
//! (`mi_malloc_is_naturally_aligned` in mimalloc's `alloc-aligned.c`). A plain `mi_malloc` block is aligned to 16 bytes whenever its
//! size is a multiple of 16, and to 8 always (mimalloc's size classes are multiples of 8, 16 above
//! 16, and a page's first block is 16-aligned), so a request whose alignment is at most 16 and
//! divides its size takes the plain path. Others (over-aligned types, raw layouts) keep the
//! aligned one. This cut a Last Victory game's instructions by about 2 % (`docs/performance.md`).
//!
//! It also counts the bytes its large blocks hold ([`live_bytes`]): the engine stops a script that
//! takes the process past the ruleset's `limits.memory` (see `host::engine::watch`). Only blocks
//! above [`COUNTED_FROM`] bytes are counted: a value that grows without end (a doubling string or
//! list) lives in one large buffer, while counting the millions of small blocks of a game would
//! cost an atomic add and subtract each.

// The one module that may use `unsafe`: an allocator is unsafe by definition. Every block is
// mimalloc's own; this only chooses which of its entry points to ask.
#![allow(unsafe_code)]

use libmimalloc_sys as mi;
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Blocks of more bytes than this are counted in [`live_bytes`] (mimalloc's small blocks end here).
pub const COUNTED_FROM: usize = 1024;

/// Bytes in the large blocks this allocator has handed out and not yet been given back.
static LIVE: AtomicUsize = AtomicUsize::new(0);

/// The bytes held in large blocks of [`Mimalloc`] (above [`COUNTED_FROM`] bytes each), all
/// threads together: 0 in a program whose global allocator is another one.
#[must_use]
pub fn live_bytes() -> usize {
    LIVE.load(Ordering::Relaxed)
}

/// Counts a block of `size` bytes handed out, if it is large and not null; passes it on.
#[inline]
fn counted(block: *mut u8, size: usize) -> *mut u8 {
    if size > COUNTED_FROM && !block.is_null() {
        LIVE.fetch_add(size, Ordering::Relaxed);
    }
    block
}

/// Counts a block of `size` bytes given back, if it is large.
#[inline]
fn uncounted(size: usize) {
    if size > COUNTED_FROM {
        LIVE.fetch_sub(size, Ordering::Relaxed);
    }
}

/// The largest alignment a plain mimalloc block has when its size is a multiple of it
/// (`MI_MAX_ALIGN_SIZE`).
const PLAIN_ALIGN: usize = 16;

/// mimalloc as the global allocator (`#[global_allocator] static A: Mimalloc = Mimalloc;`).
pub struct Mimalloc;

/// Whether a plain block of `size` bytes is aligned enough for `align`.
fn plain_is_aligned(size: usize, align: usize) -> bool {
    align <= PLAIN_ALIGN && size.is_multiple_of(align)
}

// SAFETY: every pointer comes from mimalloc and goes back to it (`mi_free` and the `realloc`s
// take a block from any of its entry points); a block from the plain entry points is only used
// where `plain_is_aligned` holds, which mimalloc's size classes guarantee (module comment).
unsafe impl GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let block = if plain_is_aligned(layout.size(), layout.align()) {
            mi::mi_malloc(layout.size())
        } else {
            mi::mi_malloc_aligned(layout.size(), layout.align())
        };
        counted(block.cast(), layout.size())
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let block = if plain_is_aligned(layout.size(), layout.align()) {
            mi::mi_zalloc(layout.size())
        } else {
            mi::mi_zalloc_aligned(layout.size(), layout.align())
        };
        counted(block.cast(), layout.size())
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        uncounted(layout.size());
        mi::mi_free(ptr.cast::<c_void>());
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let block = if plain_is_aligned(new_size, layout.align()) {
            mi::mi_realloc(ptr.cast::<c_void>(), new_size)
        } else {
            mi::mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align())
        };
        // A failed realloc leaves the old block as it was.
        if !block.is_null() {
            uncounted(layout.size());
        }
        counted(block.cast(), new_size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every size and alignment a program asks for comes back aligned, on both paths, through
    /// allocation, zeroed allocation and growth.
    #[test]
    fn every_block_is_aligned_as_asked() {
        let a = Mimalloc;
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in (1..300).chain([1000, 4096, 70_000]) {
                let layout = Layout::from_size_align(size, align).expect("layout");
                // SAFETY: non-zero sizes; each block is freed with the layout it was made with.
                unsafe {
                    let p = a.alloc(layout);
                    assert!(!p.is_null());
                    assert_eq!(p as usize % align, 0, "size {size} align {align}");
                    p.write_bytes(0xAB, size);
                    let z = a.alloc_zeroed(layout);
                    assert_eq!(z as usize % align, 0, "zeroed size {size} align {align}");
                    assert!((0..size).all(|i| *z.add(i) == 0));
                    let grown = a.realloc(p, layout, size * 3);
                    assert_eq!(grown as usize % align, 0, "grown size {size} align {align}");
                    assert!((0..size).all(|i| *grown.add(i) == 0xAB), "kept on growing");
                    a.dealloc(
                        grown,
                        Layout::from_size_align(size * 3, align).expect("layout"),
                    );
                    a.dealloc(z, layout);
                }
            }
        }
    }

    /// A large block is counted while it is held, through growth, and not after; a small one
    /// is not counted. (Other tests here allocate at most a few hundred KiB at once.)
    #[test]
    fn large_blocks_are_counted_while_held() {
        const MIB: usize = 1 << 20;
        let near = |got: usize, want: usize| got.abs_diff(want) < MIB;
        let a = Mimalloc;
        let before = live_bytes();
        let big = Layout::from_size_align(64 * MIB, 8).expect("layout");
        // SAFETY: each block is freed with the layout it has when it is freed.
        unsafe {
            let p = a.alloc(big);
            assert!(!p.is_null());
            assert!(near(live_bytes(), before + 64 * MIB), "held");
            let p = a.realloc(p, big, 96 * MIB);
            assert!(!p.is_null());
            assert!(near(live_bytes(), before + 96 * MIB), "grown");
            a.dealloc(p, Layout::from_size_align(96 * MIB, 8).expect("layout"));
            let small = Layout::from_size_align(COUNTED_FROM, 8).expect("layout");
            let q = a.alloc(small);
            assert!(
                near(live_bytes(), before),
                "given back; a small block uncounted"
            );
            a.dealloc(q, small);
        }
    }

    #[test]
    fn only_aligned_enough_requests_take_the_plain_path() {
        assert!(plain_is_aligned(48, 16));
        assert!(plain_is_aligned(24, 8));
        assert!(plain_is_aligned(7, 1));
        assert!(
            !plain_is_aligned(8, 16),
            "an 8-byte block may sit at an 8-byte boundary"
        );
        assert!(!plain_is_aligned(64, 32));
    }
}
