//! Order-keeping parallel map over a stream: items are produced on one
//! thread, mapped on several, and consumed in their original order on the
//! calling thread. Memory stays bounded by the channel depth.

use std::collections::BTreeMap;
use std::sync::{Mutex, mpsc};

use super::profile::{self, IN_ORDER, PIPELINE, READ, WORK};

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

/// The cores this process may use, asked of the system once (each ask
/// reads the cgroup's files).
pub fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// What this map and [`crate::fleet::ordered`] share: `workers` threads of
/// `scope` map the `(seq, item)` pairs `items` gives (`seq` counting from 0)
/// with `map`, and the results go to `consume` in `seq` order on this
/// thread. `depth` results fit in the channel back to this thread. Returns
/// once every sender of `items` is gone and every result is consumed.
/// `count`: the time goes into the run's profile ([`profile`]).
pub(crate) fn map_in_order<'scope, T: Send + 'scope, U: Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    workers: usize,
    depth: usize,
    items: &'scope Mutex<mpsc::Receiver<(usize, T)>>,
    map: &'scope (impl Fn(T) -> U + Sync),
    mut consume: impl FnMut(U),
    count: bool,
) {
    let (done_tx, done_rx) = mpsc::sync_channel::<(usize, U)>(depth);
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
    if !split {
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
}
