//! Many session files at once: finding them under directories ([`walk`]),
//! checking them on every core in bounded memory ([`ordered`]), and proving
//! that a whole fleet only grew, against a git revision ([`git`]) or a
//! manifest of digests ([`manifest`]); `fsck` of one file ([`check`]), of
//! the refs ysess keeps beside an app's file ([`refs`]), and of a whole run
//! ([`plan`]) as operations.

pub mod check;
pub mod git;
pub mod manifest;
pub mod plan;
pub mod refs;
pub mod sessions;
pub mod walk;

use std::sync::{Mutex, mpsc};

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
    let count = crate::input::profile::counting();
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
        crate::input::par::map_in_order(
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

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
