//! Two pieces of work side by side: the load's independent passes (the point-location grid
//! beside the structure checks, the pockets beside the turning corners) on a second thread.

use std::sync::{Mutex, OnceLock};

/// Whether this machine runs two threads at once (asked once per process: the answer reads
/// the scheduler's settings).
pub(crate) fn has_second_core() -> bool {
    static SECOND_CORE: OnceLock<bool> = OnceLock::new();
    *SECOND_CORE.get_or_init(|| std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2))
}

/// Runs `here` on the caller's thread and `there` on a second thread when `two_threads`, and
/// returns both answers; otherwise (or when the system cannot start a thread) runs both on the
/// caller's thread. A panic in either reaches the caller, as it would on one thread.
pub(crate) fn join<A, B, FA, FB>(two_threads: bool, here: FA, there: FB) -> (A, B)
where
    FA: FnOnce() -> A,
    FB: FnOnce() -> B + Send,
    B: Send,
{
    if !two_threads {
        let b = there();
        return (here(), b);
    }
    // The work for the second thread waits in a slot, so that it can still run here when no
    // thread starts (a failed spawn drops the closure that would have taken it).
    let slot = Mutex::new(Some(there));
    let run = |slot: &Mutex<Option<FB>>| {
        let work = slot.lock().map(|mut work| work.take()).unwrap_or(None);
        work.map(|work| work())
    };
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new().spawn_scoped(scope, || run(&slot)).ok();
        let a = here();
        let b = match handle {
            Some(handle) => handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            None => None,
        };
        (a, b.or_else(|| run(&slot)).expect("the second piece of work ran on one thread or the other"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_answers_come_back_on_one_thread_or_two() {
        for two in [false, true] {
            let here = std::thread::current().id();
            let (a, (b, there)) = join(two, || 6 * 7, || ("b", std::thread::current().id()));
            assert_eq!((a, b), (42, "b"));
            assert_eq!(there == here, !two, "two threads: {two}");
        }
    }

    #[test]
    fn a_panic_on_the_second_thread_reaches_the_caller() {
        let caught = std::panic::catch_unwind(|| join(true, || 1, || -> u32 { panic!("there") }));
        let message = caught.expect_err("the panic comes back");
        assert_eq!(message.downcast_ref::<&str>(), Some(&"there"));
    }
}
