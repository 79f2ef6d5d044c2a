//! The entries table's rows of one file: made on every core, a window of
//! entries at a time, by UTC day, each window's rows handed to the writer
//! while the next window's are made.

use std::borrow::Cow;
use std::io;

use super::line_text::{agent_of_line, lean_text_len, text_len};
use super::said::{Used, said};
use super::{ENTRIES, NO_DAY, Say, Source, parent_of, rows_of, text};
use crate::format::MessageKind;
use crate::table::part::{Cell, Columns};
use crate::tree::Ix;

/// Entries whose rows are made at once: what bounds the memory one session
/// takes, however long it is. (The unit tests' sessions pass several.)
const WINDOW: usize = if cfg!(test) { 64 } else { 64 * 1024 };

/// The cells of one entries-table row.
type Row<'a> = [Cell<'a>; 24];

/// Maps ranges that cover `0..len` with `map` on every core, the results
/// in order.
fn on_chunks<T: Send>(
    len: usize,
    map: impl Fn(std::ops::Range<usize>) -> io::Result<T> + Sync,
) -> io::Result<Vec<T>> {
    let workers = crate::input::par::jobs_up_to(8);
    let chunk = len.div_ceil(workers).max(4096);
    let ranges = (0..len)
        .step_by(chunk)
        .map(|from| from..(from + chunk).min(len))
        .collect();
    let parts: Vec<io::Result<T>> = crate::input::par::split(ranges, map);
    parts.into_iter().collect()
}

/// The rows of one file's entries, by UTC day (`YYYY-MM-DD`, or
/// [`NO_DAY`]), handed to `sink` a window of entries at a time.
pub fn file_rows(
    src: &Source<'_>,
    say: Say<'_>,
    sink: &mut (dyn FnMut(Vec<(String, Columns)>) -> io::Result<()> + Send),
) -> io::Result<()> {
    let repo = src.repo;
    let tree = &repo.tree;
    let ixs = rows_of(repo);
    let file = src.path.display().to_string();
    let root = roots(src);
    let used = used_of(src, &ixs);
    let fresh: Vec<Ix> = ixs
        .iter()
        .copied()
        .filter(|&ix| {
            let n = tree.node(ix);
            n.offset + n.len > src.from && n.offset + n.len <= src.until
        })
        .collect();
    // On every row: redacted once, counted on each.
    let file = say.plain(&file, fresh.len());
    let session = say.plain(src.session, fresh.len());
    let rows = Rows {
        src,
        say,
        session: &session,
        file: &file,
        root: &root,
        used: &used,
    };
    // The rows of the fresh entries, a window at a time, made on every
    // core, a range of the window each, by UTC day; a window's rows go to
    // the writer while the next window's are made.
    overlapped(
        fresh.chunks(WINDOW),
        |window| {
            let parts = on_chunks(window.len(), |range| rows.by_day(&window[range]))?;
            // Each core's rows of a day go on as a piece of their own, in
            // order: the writer writes pieces one after the other, unmerged.
            Ok(parts.into_iter().flatten().collect())
        },
        sink,
    )
}

/// The root of each entry's tree, in file order (a parent comes before its
/// children; one that does not is walked up).
fn roots(src: &Source<'_>) -> Vec<Ix> {
    let (repo, tree) = (src.repo, &src.repo.tree);
    let mut root: Vec<Ix> = (0..tree.len() as Ix).collect();
    for ix in 0..tree.len() as Ix {
        let mut at = ix;
        let mut steps = 0;
        while let Some(p) = parent_of(repo, at) {
            if p < ix {
                at = root[p as usize];
                break;
            }
            at = p;
            steps += 1;
            if steps > tree.len() {
                break;
            }
        }
        root[ix as usize] = at;
    }
    root
}

/// What each assistant entry of `ixs` adds to its model call. A Claude
/// Code response is one model call written over several lines, each with
/// the usage so far: each line's row has what it adds to the line before
/// (the rows of a response add up to its last line's usage, as `ysess
/// stats` counts it), and its first line is the turn. A row so never
/// changes when more lines come.
fn used_of(src: &Source<'_>, ixs: &[Ix]) -> Vec<Option<Used>> {
    let mut before: hashbrown::HashMap<&str, super::Said<'_>> = hashbrown::HashMap::new();
    let mut used: Vec<Option<Used>> = Vec::new();
    used.resize_with(src.repo.tree.len(), || None);
    for &ix in ixs {
        let Some(f) = said(src, ix) else {
            continue;
        };
        if f.kind != MessageKind::Assistant {
            continue;
        }
        let prior = f.response.and_then(|id| before.insert(id, f.clone()));
        used[ix as usize] = Some(Used::since(&f, prior.as_ref()));
    }
    used
}

/// What every row of one file takes from the file as a whole.
struct Rows<'r, 'a> {
    src: &'r Source<'a>,
    /// How its text is said: redacted (with `--redact`), inert.
    say: Say<'r>,
    /// The session's id, as its rows name it.
    session: &'r str,
    /// The file's path, as its rows name it.
    file: &'r str,
    /// Each entry's root ([`roots`]).
    root: &'r [Ix],
    /// What each assistant entry adds to its model call ([`used_of`]).
    used: &'r [Option<Used>],
}

impl Rows<'_, '_> {
    /// The rows of the entries `part`, by UTC day.
    fn by_day(&self, part: &[Ix]) -> io::Result<Vec<(String, Columns)>> {
        let repo = self.src.repo;
        let tree = &repo.tree;
        let mut days = Days {
            by_day: Vec::new(),
            day_of: None,
            counts: day_counts(self.src, part),
        };
        let read = self.read_lines(part)?;
        for (&ix, (len, agent)) in part.iter().zip(read) {
            let len = repo.tally(ix).map_or(len, |t| t.text as usize);
            let row = self.row(ix, len, agent);
            let at = days.slot(tree.node(ix).timestamp);
            days.by_day[at].1.push(row);
        }
        Ok(days.by_day)
    }

    /// Each entry's text length and (for a turn folded into the file)
    /// subagent: the load's tally has the length; the other lines are read
    /// for them.
    fn read_lines(&self, part: &[Ix]) -> io::Result<Vec<(usize, Option<String>)>> {
        let repo = self.src.repo;
        let tree = &repo.tree;
        let folded = |ix: Ix| tree.is_record(ix) && repo.format.spec().folds_subagent_turns();
        let mut read: Vec<(usize, Option<String>)> = vec![(0, None); part.len()];
        let unread: Vec<usize> = (0..part.len())
            .filter(|&at| repo.tally(part[at]).is_none() || folded(part[at]))
            .collect();
        let lines: Vec<Ix> = unread.iter().map(|&at| part[at]).collect();
        let mut next = unread.iter();
        repo.each_line(&lines, |ix, line| {
            let len = match lean_text_len(line, repo.format) {
                Some(len) => len,
                None => repo
                    .entry_from(ix, line)
                    .map_or(0, |entry| text_len(&entry.message)),
            };
            // The subagent of a turn folded into the file.
            let agent = folded(ix).then(|| agent_of_line(line)).flatten();
            if let Some(&at) = next.next() {
                read[at] = (len, agent);
            }
            Ok(())
        })?;
        Ok(read)
    }

    /// The row of entry `ix`, whose text is `len` characters long and which
    /// is a turn of subagent `agent` when folded into the file.
    fn row(&self, ix: Ix, len: usize, agent: Option<String>) -> Row<'_> {
        let src = self.src;
        let (repo, tree) = (src.repo, &src.repo.tree);
        let int = |n: u64| Cell::Int(i64::try_from(n).unwrap_or(i64::MAX));
        let node = tree.node(ix);
        let facts = said(src, ix);
        let facts = facts.as_ref();
        let turn = self.used[ix as usize].as_ref();
        let usage = |n: fn(&Used) -> i64| turn.map_or(Cell::Null, |u| Cell::Int(n(u)));
        let (tool, is_error) = match facts.and_then(|f| f.result) {
            Some((tool, err)) => (self.say.cell(tool).non_empty(), Cell::Bool(err)),
            None => (Cell::Null, Cell::Null),
        };
        let subagent = src.subagent.map(str::to_string).or(agent);
        let say = self.say;
        [
            text(self.session),
            text(self.file),
            int(node.line),
            say.cell(tree.id(ix)),
            say.opt(parent_of(repo, ix).map(|p| tree.id(p))),
            int(u64::from(node.depth)),
            say.cell(tree.id(self.root[ix as usize])),
            say.cell(node.kind.role_name()),
            if node.kind == MessageKind::Custom {
                say.cell(tree.tag(ix)).non_empty()
            } else {
                Cell::Null
            },
            say.opt(facts.and_then(|f| f.model).filter(|m| !m.is_empty())),
            if node.timestamp > 0 {
                int(node.timestamp)
            } else {
                Cell::Null
            },
            Cell::Bool(turn.is_some_and(|u| u.turn)),
            usage(|u| u.input),
            usage(|u| u.output),
            usage(|u| u.cache_read),
            usage(|u| u.cache_write),
            turn.and_then(|u| u.cost).map_or(Cell::Null, Cell::Float),
            tool,
            say.opt(facts.and_then(|f| f.call)),
            facts
                .filter(|f| f.kind == MessageKind::Assistant)
                .map_or(Cell::Null, |f| int(f.calls as u64)),
            is_error,
            int(len as u64),
            Cell::Text(say.line(tree.subject(ix))),
            subagent.map_or(Cell::Null, |s| {
                Cell::Text(Cow::Owned(say.plain(&s, 1).into_owned()))
            }),
        ]
    }
}

/// The rows of each day among `part`, counted first: each day's buffers
/// are made once, at their size.
fn day_counts(src: &Source<'_>, part: &[Ix]) -> Vec<(u64, usize)> {
    let mut days: Vec<(u64, usize)> = Vec::new();
    for &ix in part {
        let number = day_number(src.repo.tree.node(ix).timestamp);
        match days.iter_mut().find(|(n, _)| *n == number) {
            Some((_, count)) => *count += 1,
            None => days.push((number, 1)),
        }
    }
    days
}

/// A range of entries' rows, by UTC day, as they are made.
struct Days {
    by_day: Vec<(String, Columns)>,
    /// The day of the row before, by number, and where its rows are.
    day_of: Option<(u64, usize)>,
    /// The rows of each day ([`day_counts`]).
    counts: Vec<(u64, usize)>,
}

impl Days {
    /// Where the rows of the day of `timestamp` go: the UTC day named once
    /// per run of rows on one day.
    fn slot(&mut self, timestamp: u64) -> usize {
        let number = day_number(timestamp);
        if let Some((n, at)) = self.day_of
            && n == number
        {
            return at;
        }
        let day = crate::stats::report::day(timestamp, &jiff::tz::TimeZone::UTC)
            .filter(|_| timestamp > 0)
            .unwrap_or_else(|| NO_DAY.to_string());
        let at = match self.by_day.iter().position(|(d, _)| *d == day) {
            Some(at) => at,
            None => {
                // Room for the day's rows, with texts as long as the day
                // before's.
                let rows = self
                    .counts
                    .iter()
                    .find(|(n, _)| *n == number)
                    .map_or(0, |d| d.1);
                let like = self.by_day.last().map(|(_, c)| c);
                let cols = Columns::with_rows(ENTRIES, rows, like);
                self.by_day.push((day, cols));
                self.by_day.len() - 1
            }
        };
        self.day_of = Some((number, at));
        at
    }
}

/// The number of an entry's UTC day (`u64::MAX` for an entry without a
/// time).
fn day_number(timestamp: u64) -> u64 {
    if timestamp > 0 {
        timestamp / 86_400_000
    } else {
        u64::MAX
    }
}

/// Hands `sink` what `make` makes of each of `items`, in order; `make` of
/// an item runs while `sink` takes the one before (the writer may encode a
/// partition then).
fn overlapped<I, T: Send>(
    items: impl IntoIterator<Item = I>,
    mut make: impl FnMut(I) -> io::Result<T>,
    sink: &mut (dyn FnMut(T) -> io::Result<()> + Send),
) -> io::Result<()> {
    std::thread::scope(|scope| {
        let mut sink = Some(sink);
        let mut writing: Option<std::thread::ScopedJoinHandle<'_, _>> = None;
        for item in items {
            let made = make(item)?;
            if let Some(done) = writing.take() {
                let (back, written) = done.join().expect("the writer does not panic");
                sink = Some(back);
                written?;
            }
            // (Back from the writer above, which is joined first.)
            let Some(sink) = sink.take() else {
                return Err(io::Error::other("the writer was not given back"));
            };
            writing = Some(scope.spawn(move || {
                let written = sink(made);
                (sink, written)
            }));
        }
        if let Some(done) = writing {
            done.join().expect("the writer does not panic").1?;
        }
        Ok(())
    })
}
