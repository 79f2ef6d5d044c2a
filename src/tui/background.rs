//! The browser's background reads, in one place: the session list, what
//! each reply used, the whole graph's checkpoints, and the file read again
//! as it grows. Each runs on a thread of its own and answers once, on a
//! channel the browser looks at between frames ([`received`]).

use std::sync::mpsc::{Receiver, TryRecvError};

/// Starts `read` on a thread of its own, through the one executor: its
/// answer comes on the receiver.
pub fn read<T: Send + 'static>(read: impl FnOnce() -> T + Send + 'static) -> Receiver<T> {
    crate::input::par::background(read)
}

/// What a background read sent: `Some(Some(value))`; `Some(None)` when it
/// ended without sending; `None` while it is still under way (unless
/// `wait`) or when none was started. The receiver is dropped once it has
/// answered.
pub fn received<T>(rx: &mut Option<Receiver<T>>, wait: bool) -> Option<Option<T>> {
    let got = match rx.as_ref()? {
        rx if wait => rx.recv().ok(),
        rx => match rx.try_recv() {
            Ok(value) => Some(value),
            Err(TryRecvError::Disconnected) => None,
            Err(TryRecvError::Empty) => return None,
        },
    };
    *rx = None;
    Some(got)
}
