//! Two pieces of work side by side: the load's independent passes (the point-location grid
//! beside the structure checks, the pockets beside the turning corners), and the bake's
//! verification beside them, on trinav's own pool of two threads.
//!
//! The pool (rayon's, built apart from the program's global pool so that its settings stay the
//! program's) starts at the first piece of work that asks for it and sleeps between them. The
//! caller's thread runs the first piece (its caches hold what it just decoded or welded), a
//! pool thread the second. A thread started per load was measured first: on this project's
//! 2-core VM the scheduler put it on the caller's core about every other load, so that half
//! the loads ran one piece after the other (Aurora: median 4.0 ms against 2.25 ms fastest); a
//! sleeping pool thread wakes on the idle core (median 2.3 ms). Both pieces on the pool (rayon's
//! `join` from outside it) loaded as fast but baked 5-15% slower: the caller's warm caches
//! went unused. A process forked after the pool started does not have its threads, and runs
//! everything on its own thread.

use std::sync::OnceLock;

/// trinav's pool of two threads, started on first use; `None` when the machine runs one
/// thread at a time or the system could not start them (the work then runs on the caller's
/// thread).
fn pool() -> Option<&'static rayon::ThreadPool> {
    pool_in(std::process::id())
}

/// The pool, if it was started by process `process`. A process forked from one that had
/// started it inherits the pool's state but not its threads: work given to it would wait
/// forever, so such a child runs everything on the caller's thread.
fn pool_in(process: u32) -> Option<&'static rayon::ThreadPool> {
    static POOL: OnceLock<Option<(rayon::ThreadPool, u32)>> = OnceLock::new();
    let started = POOL.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        if cores < 2 {
            return None;
        }
        let builder = rayon::ThreadPoolBuilder::new().num_threads(2);
        let pool = builder.thread_name(|i| format!("trinav-{i}")).build().ok()?;
        Some((pool, std::process::id()))
    });
    started.as_ref().filter(|(_, owner)| *owner == process).map(|(pool, _)| pool)
}

/// Whether two pieces of work can run at once here: the machine has two cores and the pool
/// started (starting it, the first time).
pub(crate) fn two_threads_available() -> bool {
    pool().is_some()
}

/// Runs `first` on the caller's thread and `second` on the pool side by side when
/// `two_threads` and the pool is there, and returns both answers; otherwise runs both on the
/// caller's thread. A panic in either reaches the caller, as it would on one thread.
pub(crate) fn join<A, B, FA, FB>(two_threads: bool, first: FA, second: FB) -> (A, B)
where
    FA: FnOnce() -> A,
    FB: FnOnce() -> B + Send,
    B: Send,
{
    // The pool is asked for (and started, the first time) only for work that may use it.
    match two_threads.then(pool).flatten() {
        Some(pool) => {
            let mut b = None;
            let a = pool.in_place_scope(|scope| {
                scope.spawn(|_| b = Some(second()));
                first()
            });
            (a, b.expect("the scope waits for the work it spawned"))
        }
        None => {
            let b = second();
            (first(), b)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_answers_come_back_on_one_thread_or_the_pool() {
        for two in [false, true] {
            let caller = std::thread::current().id();
            let on_caller = || std::thread::current().id() == caller;
            let (a, (b, second_here)) = join(two, || (6 * 7, on_caller()), || ("b", on_caller()));
            assert_eq!((a.0, b), (42, "b"));
            // The first piece on the caller's thread, the second on the pool when it is used.
            let pooled = two && two_threads_available();
            assert_eq!((a.1, second_here), (true, !pooled), "two threads: {two}");
        }
    }

    #[test]
    fn both_pieces_run_at_once_on_the_pool() {
        if !two_threads_available() {
            return;
        }
        // Each piece waits for the other to start: they finish only when both run at once.
        let started = std::sync::Barrier::new(2);
        let (a, b) = join(true, || started.wait().is_leader(), || started.wait().is_leader());
        assert!(a != b, "one of the two is the barrier's leader");
    }

    #[test]
    fn only_the_process_that_started_the_pool_uses_it() {
        let here = std::process::id();
        assert_eq!(pool_in(here).is_some(), two_threads_available());
        // A forked child sees another process id: no pool, everything on its own thread.
        assert!(pool_in(here.wrapping_add(1)).is_none());
    }

    #[test]
    fn a_panic_on_the_second_thread_reaches_the_caller() {
        let caught = std::panic::catch_unwind(|| join(true, || 1, || -> u32 { panic!("there") }));
        let message = caught.expect_err("the panic comes back");
        assert_eq!(message.downcast_ref::<&str>(), Some(&"there"));
    }
}
