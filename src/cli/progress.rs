//! The progress bar of the commands that read many files (`fsck DIR`,
//! `ls`): on a terminal only, and only once a run has taken a second.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use crate::ui::render::thousands;

/// The progress bar: on a terminal, once the run has taken a second.
pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
    found: AtomicU64,
    done: AtomicU64,
    shown: std::sync::Arc<AtomicBool>,
}

impl Progress {
    pub fn new(terminal: bool) -> Progress {
        let shown = std::sync::Arc::new(AtomicBool::new(false));
        let bar = terminal.then(|| {
            let bar = indicatif::ProgressBar::with_draw_target(
                Some(0),
                indicatif::ProgressDrawTarget::hidden(),
            );
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{wide_bar} {msg} files, {bytes}/{total_bytes}, {bytes_per_sec}, ETA {eta}",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            let (later, shown) = (bar.clone(), shown.clone());
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_secs(1));
                if !later.is_finished() {
                    later.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                    later.enable_steady_tick(Duration::from_millis(200));
                    shown.store(true, Ordering::SeqCst);
                }
            });
            bar
        });
        Progress {
            bar,
            found: AtomicU64::new(0),
            done: AtomicU64::new(0),
            shown,
        }
    }

    pub fn found(&self, bytes: u64) {
        if let Some(bar) = &self.bar {
            self.found.fetch_add(1, Ordering::Relaxed);
            bar.inc_length(bytes);
            self.message(bar);
        }
    }

    pub fn done(&self, bytes: u64) {
        if let Some(bar) = &self.bar {
            self.done.fetch_add(1, Ordering::Relaxed);
            bar.inc(bytes);
            self.message(bar);
        }
    }

    pub fn message(&self, bar: &indicatif::ProgressBar) {
        bar.set_message(format!(
            "{}/{}",
            thousands(self.done.load(Ordering::Relaxed)),
            thousands(self.found.load(Ordering::Relaxed))
        ));
    }

    pub fn suspend<T>(&self, f: impl FnOnce() -> T) -> T {
        match &self.bar {
            Some(bar) if self.shown.load(Ordering::SeqCst) => bar.suspend(f),
            _ => f(),
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
