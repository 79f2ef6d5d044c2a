//! Order-keeping parallel map over a stream: items are produced on one
//! thread, mapped on several, and consumed in their original order on the
//! calling thread. Memory stays bounded by the channel depth.

use std::collections::BTreeMap;
use std::sync::{Mutex, mpsc};

/// Maps every item `produce` yields with `map` on `workers` threads and hands
/// the results to `consume` in production order. `produce` runs on its own
/// thread; its error, if any, is returned after the items before it.
pub fn ordered_map<T, U, E>(
    workers: usize,
    mut produce: impl FnMut() -> Result<Option<T>, E> + Send,
    map: impl Fn(T) -> U + Sync,
    mut consume: impl FnMut(U),
) -> Result<(), E>
where
    T: Send,
    U: Send,
    E: Send,
{
    let workers = workers.max(1);
    let (item_tx, item_rx) = mpsc::sync_channel::<(usize, T)>(workers);
    let item_rx = Mutex::new(item_rx);
    std::thread::scope(|scope| {
        let (done_tx, done_rx) = mpsc::sync_channel::<(usize, U)>(workers * 2);
        let producer = scope.spawn(move || {
            let mut seq = 0;
            loop {
                match produce() {
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
        for _ in 0..workers {
            let done_tx = done_tx.clone();
            let (item_rx, map) = (&item_rx, &map);
            scope.spawn(move || {
                loop {
                    let next = item_rx.lock().map(|rx| rx.recv());
                    let Ok(Ok((seq, item))) = next else { break };
                    if done_tx.send((seq, map(item))).is_err() {
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
                consume(result);
                next += 1;
            }
        }
        producer
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
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
