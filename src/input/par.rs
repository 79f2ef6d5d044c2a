//! The one executor of ysess's parallel work: every command that works on
//! several threads (fsck, ls, grep, stats, the exports, `log`'s long
//! listings, the TUI's reads) takes its worker count from [`jobs`] and runs
//! through the maps here, so one knob (`--jobs`, `YSESS_JOBS`) bounds them
//! all.
//!
//! - [`ordered_map`]: items produced on one thread, mapped on several,
//!   consumed in their original order on the calling thread;
//! - [`ordered`]: the same over an iterator, with a window that bounds how
//!   many items are under way (memory stays bounded however many files);
//! - [`split`]: a known number of parts, each on a thread of its own;
//! - [`join`]: two pieces of work side by side;
//! - [`background`]: work that answers later while the caller goes on
//!   (the TUI's reads).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};

use super::profile::{self, IN_ORDER, PIPELINE, READ, WORK};

/// The worker count set by [`set_jobs`]; 0 when none was set.
static JOBS: AtomicUsize = AtomicUsize::new(0);

/// Sets how many threads parallel work uses from now on (`--jobs N`,
/// `YSESS_JOBS`); 0 goes back to the default, every core.
pub fn set_jobs(n: usize) {
    JOBS.store(n, Ordering::Relaxed);
}

/// How many threads parallel work uses: what [`set_jobs`] set, else every
/// core this process may use.
pub fn jobs() -> usize {
    match JOBS.load(Ordering::Relaxed) {
        0 => cores(),
        n => n,
    }
}

/// [`jobs`], at most `cap` (work that gains nothing past a few threads).
pub fn jobs_up_to(cap: usize) -> usize {
    jobs().clamp(1, cap.max(1))
}

/// Maps every item `produce` yields with `map` on `workers` threads and hands
/// the results to `consume` in production order. `produce` runs on its own
/// thread; its error, if any, is returned after the items before it.
pub fn ordered_map<T, U, E>(
    workers: usize,
    mut produce: impl FnMut() -> Result<Option<T>, E> + Send,
    map: impl Fn(T) -> U + Sync,
    consume: impl FnMut(U),
) -> Result<(), E>
where
    T: Send,
    U: Send,
    E: Send,
{
    let workers = workers.max(1);
    let (item_tx, item_rx) = mpsc::sync_channel::<(usize, T)>(workers);
    let item_rx = Mutex::new(item_rx);
    let count = profile::counting();
    PIPELINE.time(count, || {
        std::thread::scope(|scope| {
            let producer = scope.spawn(move || {
                let mut seq = 0;
                loop {
                    match READ.time(count, &mut produce) {
                        Ok(Some(item)) => {
                            if item_tx.send((seq, item)).is_err() {
                                return Ok(());
                            }
                            seq += 1;
                        }
                        Ok(None) => return Ok(()),
                        Err(e) => return Err(e),
                    }
                }
            });
            map_in_order(scope, workers, workers * 2, &item_rx, &map, consume, count);
            producer
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        })
    })
}

/// Maps `items` with `map` on `workers` threads and hands the results to
/// `consume` in the items' order. At most `window` items are between being
/// taken from `items` and being consumed, so memory stays bounded however
/// many items there are, even when one is slow. `consume` returning false
/// stops taking new items (those under way are still consumed).
pub fn ordered<T: Send, U: Send>(
    workers: usize,
    window: usize,
    items: impl Iterator<Item = T> + Send,
    map: impl Fn(T) -> U + Sync,
    mut consume: impl FnMut(U) -> bool,
) {
    let workers = workers.max(1);
    let window = window.max(workers);
    let (token_tx, token_rx) = mpsc::sync_channel::<()>(window);
    for _ in 0..window {
        let _ = token_tx.send(());
    }
    let (item_tx, item_rx) = mpsc::sync_channel::<(usize, T)>(workers);
    let item_rx = Mutex::new(item_rx);
    let count = profile::counting();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            for (seq, item) in items.enumerate() {
                // A token per item under way: none left, wait for `consume`.
                if token_rx.recv().is_err() || item_tx.send((seq, item)).is_err() {
                    return;
                }
            }
        });
        let mut token_tx = Some(token_tx);
        map_in_order(
            scope,
            workers,
            window,
            &item_rx,
            &map,
            |result| {
                let go_on = consume(result);
                match (&token_tx, go_on) {
                    (Some(tx), true) => {
                        let _ = tx.try_send(());
                    }
                    // Dropping the tokens ends the producer at its next item.
                    _ => token_tx = None,
                }
            },
            count,
        );
    });
}

/// The cores this process may use, asked of the system once (each ask
/// reads the cgroup's files).
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// What this map and [`ordered`] share: `workers` threads of
/// `scope` map the `(seq, item)` pairs `items` gives (`seq` counting from 0)
/// with `map`, and the results go to `consume` in `seq` order on this
/// thread. `depth` results fit in the channel back to this thread. Returns
/// once every sender of `items` is gone and every result is consumed.
/// `count`: the time goes into the run's profile ([`profile`]).
fn map_in_order<'scope, T: Send + 'scope, U: Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    workers: usize,
    depth: usize,
    items: &'scope Mutex<mpsc::Receiver<(usize, T)>>,
    map: &'scope (impl Fn(T) -> U + Sync),
    mut consume: impl FnMut(U),
    count: bool,
) {
    let (done_tx, done_rx) = mpsc::sync_channel::<(usize, U)>(depth);
    if count {
        profile::workers(workers);
    }
    for _ in 0..workers {
        let done_tx = done_tx.clone();
        scope.spawn(move || {
            profile::enter_worker();
            loop {
                let next = items.lock().map(|rx| rx.recv());
                let Ok(Ok((seq, item))) = next else { break };
                if done_tx.send((seq, WORK.time(count, || map(item)))).is_err() {
                    break;
                }
            }
        });
    }
    drop(done_tx);
    let mut pending = BTreeMap::new();
    let mut next = 0;
    for (seq, result) in done_rx {
        pending.insert(seq, result);
        while let Some(result) = pending.remove(&next) {
            next += 1;
            IN_ORDER.time(count, || consume(result));
        }
    }
}

/// Entries from which the last steps of a check (the summary beside the
/// warnings, the tool results beside the other warnings) pay for a thread
/// of their own; below it, as for most files of a fleet checked on every
/// core at once, they run one after the other.
pub const SPLIT_AT: usize = 4096;

/// `a` and `b`, `a` on a thread of its own when `split`; results as if
/// run one after the other.
pub fn join<A: Send, B>(
    split: bool,
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B,
) -> (A, B) {
    if !split || jobs() == 1 {
        let b = b();
        return (a(), b);
    }
    std::thread::scope(|scope| {
        let a = scope.spawn(a);
        let b = b();
        match a.join() {
            Ok(a) => (a, b),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// `work(part)` for every part, each part on a thread of its own when
/// there are several; results in the parts' order.
pub fn split<P: Send, R: Send>(parts: Vec<P>, work: impl Fn(P) -> R + Sync) -> Vec<R> {
    if parts.len() <= 1 {
        return parts.into_iter().map(work).collect();
    }
    let work = &work;
    if profile::counting() {
        profile::workers(parts.len());
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = parts
            .into_iter()
            .map(|part| scope.spawn(move || work(part)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

/// Starts `work` on a thread of its own while the caller goes on (a view
/// that must not freeze: the TUI's reads); its answer comes on the
/// receiver, which says the work ended without answering if it panicked.
pub fn background<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> std::sync::mpsc::Receiver<T> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(work());
    });
    rx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_order_and_reports_the_producer_error_last() {
        let mut n = 0;
        let mut seen = Vec::new();
        let result = ordered_map(
            3,
            || {
                n += 1;
                match n {
                    1..=50 => Ok(Some(n)),
                    _ => Err("stop"),
                }
            },
            |x| x * 2,
            |y| seen.push(y),
        );
        assert_eq!(result, Err("stop"));
        assert_eq!(seen, (1..=50).map(|x| x * 2).collect::<Vec<_>>());
    }

    #[test]
    fn keeps_order_with_no_more_than_the_window_under_way() {
        let taken = AtomicUsize::new(0);
        let mut consumed = 0;
        let mut seen = Vec::new();
        let items = (0..200).inspect(|_| {
            taken.fetch_add(1, Ordering::SeqCst);
        });
        ordered(
            3,
            5,
            items,
            |n: u32| {
                // The first item is slow: the others must wait for it.
                if n == 0 {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
                n
            },
            |n| {
                consumed += 1;
                let under_way = taken.load(Ordering::SeqCst) - consumed;
                assert!(under_way <= 5 + 1, "{under_way} items under way");
                seen.push(n);
                true
            },
        );
        assert_eq!(seen, (0..200).collect::<Vec<_>>());
    }

    #[test]
    fn stops_taking_items_when_told() {
        let mut seen = Vec::new();
        ordered(
            2,
            4,
            0..1_000_000u32,
            |n| n,
            |n| {
                seen.push(n);
                n < 10
            },
        );
        assert!(seen.len() < 20, "{}", seen.len());
        assert_eq!(seen[..11], (0..11).collect::<Vec<_>>()[..]);
    }
}
