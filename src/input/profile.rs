//! Where the time of a run goes, phase by phase, for `YSESS_PROFILE=1`
//! (printed on stderr when the command ends, as git's
//! `GIT_TRACE_PERFORMANCE` does): reading, the work done on every core, and
//! the work done in order on one thread. The benches print it beside their
//! figures so that the next person sees which phase to make faster.
//!
//! Every parallel read of a file goes through [`super::par`], which counts
//! here; when the variable is unset, counting costs one relaxed load per
//! block.

use std::fmt::Write as _;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// One phase's total, in nanoseconds, and how many times it ran.
pub(crate) struct Phase {
    nanos: AtomicU64,
    count: AtomicU64,
}

impl Phase {
    const fn new() -> Self {
        Phase {
            nanos: AtomicU64::new(0),
            count: AtomicU64::new(0),
        }
    }

    /// Runs `f`, adding its time to the phase when `count`.
    #[inline]
    pub(crate) fn time<R>(&self, count: bool, f: impl FnOnce() -> R) -> R {
        if !count {
            return f();
        }
        let t = Instant::now();
        let r = f();
        self.add(t.elapsed());
        r
    }

    fn add(&self, d: Duration) {
        self.nanos
            .fetch_add(u64::try_from(d.as_nanos()).unwrap_or(u64::MAX), Relaxed);
        self.count.fetch_add(1, Relaxed);
    }

    fn ms(&self) -> f64 {
        self.nanos.load(Relaxed) as f64 / 1e6
    }
}

/// Reading blocks of the input (and what the reading thread does with
/// them: counting lines, for grep).
pub(crate) static READ: Phase = Phase::new();
/// The work on blocks or files spread over the worker threads, summed.
pub(crate) static WORK: Phase = Phase::new();
/// The work taken in order on one thread (the tree, findings, output).
pub(crate) static IN_ORDER: Phase = Phase::new();
/// The parallel pipelines from start to end, wall clock.
pub(crate) static PIPELINE: Phase = Phase::new();
/// The most worker threads one piece of parallel work ran on.
static WORKERS: AtomicU64 = AtomicU64::new(0);

/// Notes that parallel work runs on `n` worker threads.
pub(crate) fn workers(n: usize) {
    if on() {
        WORKERS.fetch_max(n as u64, Relaxed);
    }
}

thread_local! {
    /// This thread is a worker of a pipeline: a pipeline it runs is
    /// nested, and only the outer one counts.
    static WORKER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether a pipeline started on this thread counts in the profile.
pub(crate) fn counting() -> bool {
    on() && !WORKER.with(|w| w.get())
}

/// Marks this thread as a pipeline's worker.
pub(crate) fn enter_worker() {
    WORKER.with(|w| w.set(true));
}

/// Whether `YSESS_PROFILE` is set (and not empty).
pub fn on() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("YSESS_PROFILE").is_some_and(|v| !v.is_empty()))
}

/// The profile of this run, `wall` being its time from start to end; `None`
/// when profiling is off.
pub fn report(wall: Duration) -> Option<String> {
    if !on() {
        return None;
    }
    let mut out = String::new();
    let _ = write!(
        out,
        "profile: wall {:.1} ms; parallel pipeline {:.1} ms: read {:.1} ms ({} blocks, one thread), \
         work {:.1} ms (summed over {} workers, {} items), in order {:.1} ms (one thread); \
         outside the pipeline {:.1} ms",
        wall.as_secs_f64() * 1e3,
        PIPELINE.ms(),
        READ.ms(),
        READ.count.load(Relaxed),
        WORK.ms(),
        WORKERS.load(Relaxed),
        WORK.count.load(Relaxed),
        IN_ORDER.ms(),
        (wall.as_secs_f64() * 1e3 - PIPELINE.ms()).max(0.0),
    );
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_phase_adds_up_its_runs() {
        let phase = Phase::new();
        phase.add(Duration::from_millis(2));
        phase.add(Duration::from_micros(500));
        assert_eq!(phase.count.load(Relaxed), 2);
        assert!((phase.ms() - 2.5).abs() < 1e-9);
    }
}
