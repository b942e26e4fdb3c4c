//! The wasm's allocator: a free list for each power-of-two size class, over memory the
//! module grows, never given back.
//!
//! Rust's allocator on wasm32 is dlmalloc, and it was about 9 KB of the wasm before
//! wasm-opt (3.1 KB gzipped, measured in docs/PERFORMANCE.md): more than a screen costs.
//! The game's memory is a steady state (each frame builds its model and drops it; a round
//! keeps its inputs), which size classes serve well:
//! 1. A request is rounded up to a power of two of at least 16 bytes (and at least its
//!    alignment): its class.
//! 2. A freed block goes on its class's list, its first word the link to the next; an
//!    allocation takes the first block of its class's list, in constant time.
//! 3. A class with no free block takes a new one from the end of the heap, aligned to its
//!    own size (a page at most), growing the memory a megabyte or more at a time.
//!
//! What it costs: a block is at most twice its request (a `Vec` grows by doubling, so most
//! are exact), and memory freed in one class is not reused by another. The wasm runs on
//! one thread, so the lists need no lock.

use core::alloc::Layout;

/// The smallest block: room for the link, and for the alignment of anything the game
/// allocates.
const MIN_SHIFT: u32 = 4;
/// Classes from 16 bytes to 2 GiB: everything a 32-bit address space holds.
const CLASSES: usize = 28;
/// The memory's page, and the largest alignment a block is given.
pub const PAGE: usize = 65_536;
/// The memory grows by at least this many pages at a time.
const GROW_PAGES: usize = 16;

/// The lists and the end of the heap. `grow` asks for `pages` more pages of memory and
/// answers the page number where they start (`None` if there is no more).
pub struct Heap<G> {
    /// The first free block of each class, or 0.
    free: [usize; CLASSES],
    /// Where the next new block may start…
    next: usize,
    /// …and where the memory ends.
    end: usize,
    grow: G,
}

/// The class of `layout`: the power of two its block is, from [`MIN_SHIFT`]; `None` past
/// the largest, or for an alignment over a page.
fn class(layout: Layout) -> Option<usize> {
    if layout.align() > PAGE {
        return None;
    }
    let size = layout.size().max(layout.align()).max(1 << MIN_SHIFT);
    let shift = size.checked_next_power_of_two()?.trailing_zeros() - MIN_SHIFT;
    let class = shift as usize;
    (class < CLASSES).then_some(class)
}

impl<G: FnMut(usize) -> Option<usize>> Heap<G> {
    /// An empty heap that grows with `grow`.
    pub const fn new(grow: G) -> Heap<G> {
        Heap {
            free: [0; CLASSES],
            next: 0,
            end: 0,
            grow,
        }
    }

    /// A block for `layout`, or null if memory can't grow.
    ///
    /// # Safety
    /// Every block freed into this heap was allocated from it with the same layout's
    /// class, and the memory `grow` answers is this heap's alone.
    pub unsafe fn alloc(&mut self, layout: Layout) -> *mut u8 {
        let Some(class) = class(layout) else {
            return core::ptr::null_mut();
        };
        let head = self.free[class];
        if head != 0 {
            // SAFETY: a freed block of this class, its first word the link written by
            // `dealloc`.
            self.free[class] = unsafe { *(head as *const usize) };
            return head as *mut u8;
        }
        let size = 1usize << (class as u32 + MIN_SHIFT);
        let align = size.min(PAGE);
        let mut start = self.next.next_multiple_of(align);
        if start.checked_add(size).is_none_or(|end| end > self.end) {
            let wanted = size.div_ceil(PAGE) + 1;
            let pages = wanted.max(GROW_PAGES);
            let Some(first) = (self.grow)(pages) else {
                return core::ptr::null_mut();
            };
            // The memory is contiguous, so the new pages follow the old end; should
            // anything else have grown it, the heap starts again at the new pages.
            if first * PAGE != self.end {
                self.next = first * PAGE;
            }
            self.end = (first + pages) * PAGE;
            start = self.next.next_multiple_of(align);
        }
        self.next = start + size;
        start as *mut u8
    }

    /// Frees `ptr`, allocated for `layout`.
    ///
    /// # Safety
    /// `ptr` came from [`Heap::alloc`] of this heap with `layout`, and is not used again.
    pub unsafe fn dealloc(&mut self, ptr: *mut u8, layout: Layout) {
        if let Some(class) = class(layout) {
            // SAFETY: the block is at least 16 bytes, aligned to 16, and no longer used.
            unsafe { *(ptr as *mut usize) = self.free[class] };
            self.free[class] = ptr as usize;
        }
    }

    /// `ptr` (allocated for `layout`) resized to `new_size`: the same block where the
    /// class is the same, else a new one with the contents copied.
    ///
    /// # Safety
    /// As [`Heap::dealloc`]; `new_size` rounded up to the alignment doesn't overflow.
    pub unsafe fn realloc(&mut self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let Ok(new) = Layout::from_size_align(new_size, layout.align()) else {
            return core::ptr::null_mut();
        };
        if class(new) == class(layout) {
            return ptr;
        }
        // SAFETY: as the caller promised for `ptr`; the new block is another one.
        unsafe {
            let moved = self.alloc(new);
            if !moved.is_null() {
                core::ptr::copy_nonoverlapping(ptr, moved, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
            moved
        }
    }
}

/// The wasm's global allocator: a [`Heap`] over the module's memory.
#[cfg(target_arch = "wasm32")]
mod global {
    use core::alloc::{GlobalAlloc, Layout};
    use core::cell::UnsafeCell;

    use super::Heap;

    type Grow = fn(usize) -> Option<usize>;

    /// `pages` more pages of the module's memory: where they start.
    fn grow(pages: usize) -> Option<usize> {
        let first = core::arch::wasm32::memory_grow(0, pages);
        (first != usize::MAX).then_some(first)
    }

    pub struct Global(UnsafeCell<Heap<Grow>>);

    // SAFETY: the wasm32 target this is built for runs on one thread.
    unsafe impl Sync for Global {}

    // SAFETY: each call has the heap to itself (one thread, and no call re-enters the
    // allocator), and the heap hands out each block once until it is freed.
    unsafe impl GlobalAlloc for Global {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            unsafe { (*self.0.get()).alloc(layout) }
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            unsafe { (*self.0.get()).dealloc(ptr, layout) }
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            unsafe { (*self.0.get()).realloc(ptr, layout, new_size) }
        }
    }

    #[global_allocator]
    static HEAP: Global = Global(UnsafeCell::new(Heap::new(grow)));

    /// The game's memory in a steady state: each frame's model is built and dropped, and
    /// its blocks are taken again by the next; only what the round keeps grows.
    #[cfg(test)]
    mod steady {
        use typepper_game::app::{App, Key, Now};
        use typepper_game::storage::Stored;
        use wasm_bindgen_test::wasm_bindgen_test;

        /// How far the heap's end has come.
        fn heap_end() -> usize {
            // SAFETY: read between allocations, on the one thread.
            unsafe { (*super::HEAP.0.get()).next }
        }

        #[wasm_bindgen_test]
        fn a_round_s_frames_take_their_blocks_again() {
            crate::install_english();
            let zone = typepper_game::zone::Fixed(0);
            let at = |ms: f64| Now {
                mono: ms,
                unix_ms: 1_796_154_720_000 + ms as u64,
            };
            let mut app = App::new(7, &Stored::default(), None).0;
            // ZEN: no clock ends it. A key and a frame every 100 ms.
            app.key(Key::Char('z'), at(0.0));
            let frame = |app: &mut App, i: usize| {
                let t = 100.0 * i as f64;
                let key = if i % 6 == 5 {
                    ' '
                } else {
                    char::from(b'a' + (i % 26) as u8)
                };
                app.key(Key::Char(key), at(t));
                drop(app.model(t, &zone));
            };
            for i in 1..300 {
                frame(&mut app, i);
            }
            let warm = heap_end();
            for i in 300..3000 {
                frame(&mut app, i);
            }
            // 2,700 frames of several kilobytes each: a heap that reused nothing would
            // have grown by megabytes. The round's inputs and text grow by doubling.
            let grown = heap_end() - warm;
            assert!(
                grown < 256 * 1024,
                "the heap grew {grown} bytes over 2,700 frames"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A heap over a buffer of `pages` pages, handed out as asked.
    fn heap(
        pages: usize,
    ) -> (
        Heap<impl FnMut(usize) -> Option<usize>>,
        std::ops::Range<usize>,
    ) {
        let memory: &'static mut [u8] = Vec::leak(vec![0u8; (pages + 1) * PAGE]);
        // Page numbers from a page-aligned start within the buffer.
        let base = (memory.as_mut_ptr() as usize).div_ceil(PAGE);
        let mut used = 0;
        let grow = move |n: usize| {
            (used + n <= pages).then(|| {
                used += n;
                base + used - n
            })
        };
        (Heap::new(grow), base * PAGE..(base + pages) * PAGE)
    }

    fn layout(size: usize, align: usize) -> Layout {
        Layout::from_size_align(size, align).unwrap()
    }

    #[test]
    fn a_freed_block_is_taken_again_by_its_class_and_aligned_to_it() {
        let (mut heap, memory) = heap(64);
        unsafe {
            let a = heap.alloc(layout(24, 8));
            let b = heap.alloc(layout(30, 8));
            assert!(memory.contains(&(a as usize)) && memory.contains(&(b as usize)));
            assert!((a as usize).is_multiple_of(32) && (b as usize).is_multiple_of(32));
            assert_ne!(a, b);
            heap.dealloc(a, layout(24, 8));
            // Another size of the same class takes the freed block; another class doesn't.
            assert_eq!(heap.alloc(layout(17, 1)), a);
            let c = heap.alloc(layout(100, 8));
            assert!(c != a && c != b && (c as usize).is_multiple_of(128));
            // Alignment counts as size: a 1-byte value aligned to 64 is a 64-byte block.
            assert!((heap.alloc(layout(1, 64)) as usize).is_multiple_of(64));
        }
    }

    #[test]
    fn realloc_keeps_a_block_within_its_class_and_moves_the_contents_past_it() {
        let (mut heap, _) = heap(64);
        unsafe {
            let a = heap.alloc(layout(20, 4));
            a.copy_from(b"typepper".as_ptr(), 8);
            assert_eq!(heap.realloc(a, layout(20, 4), 32), a);
            let b = heap.realloc(a, layout(32, 4), 33);
            assert_ne!(b, a);
            assert_eq!(std::slice::from_raw_parts(b, 8), b"typepper");
            // The old block went back to its class.
            assert_eq!(heap.alloc(layout(32, 4)), a);
        }
    }

    #[test]
    fn the_heap_grows_for_large_blocks_and_says_when_it_can_t() {
        let (mut heap, memory) = heap(40);
        unsafe {
            let big = heap.alloc(layout(PAGE * 20, 8));
            assert!(!big.is_null() && memory.contains(&(big as usize)));
            assert!((big as usize).is_multiple_of(PAGE));
            // 32 pages more won't fit in the 40.
            assert!(heap.alloc(layout(PAGE * 30, 8)).is_null());
            assert!(
                heap.alloc(layout(8, 8 * PAGE)).is_null(),
                "past a page's alignment"
            );
            assert!(!heap.alloc(layout(8, 8)).is_null(), "the rest still serves");
        }
    }
}
