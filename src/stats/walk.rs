//! Every branch's account in one walk of the tree: [`accounts_of_paths`].

use super::*;

/// The accounts of the paths root→`end` of each of `ends` (in the user's
/// tree), each what [`Account::of`] gives for [`crate::tree::Tree::path`]
/// of it, in one walk of the tree: the account is kept as the walk goes down
/// and undone as it comes back up, so many branches sharing long prefixes
/// (a Claude Code file has a dead end at every parallel tool call) cost the
/// tree's size, not the sum of their lengths.
pub fn accounts_of_paths(
    facts: &[Option<Facts>],
    tree: &crate::tree::Tree,
    ends: &[Ix],
) -> Vec<Account> {
    let mut out = vec![Account::default(); ends.len()];
    // Where each end's path ends in the user's tree (a record's path ends at
    // the entry it hangs from).
    let mut wanted: HashMap<Ix, Vec<usize>> = HashMap::new();
    for (k, &end) in ends.iter().enumerate() {
        let at = if tree.is_record(end) {
            tree.parent(end)
        } else {
            Some(end)
        };
        if let Some(at) = at {
            wanted.entry(at).or_default().push(k);
        }
    }
    let mut walk = Walk::default();
    // Depth first, by hand: (entry, next child to visit).
    let mut stack: Vec<(Ix, usize)> = Vec::new();
    for root in tree.roots() {
        walk.enter(root, facts.get(root as usize).and_then(Option::as_ref));
        stack.push((root, 0));
        if let Some(ks) = wanted.get(&root) {
            let a = walk.account();
            for &k in ks {
                out[k] = a.clone();
            }
        }
        while let Some(top) = stack.last_mut() {
            let (ix, next) = *top;
            let children = tree.children(ix);
            if next < children.len() {
                top.1 += 1;
                let child = children[next];
                walk.enter(child, facts.get(child as usize).and_then(Option::as_ref));
                stack.push((child, 0));
                if let Some(ks) = wanted.get(&child) {
                    let a = walk.account();
                    for &k in ks {
                        out[k] = a.clone();
                    }
                }
            } else {
                walk.leave();
                stack.pop();
            }
        }
    }
    out
}

/// [`accounts_of_paths`]'s running account, with what undoes each step.
#[derive(Default)]
struct Walk<'f> {
    now: Scalars,
    tools: BTreeMap<String, ToolUse>,
    models: BTreeMap<String, u64>,
    unpriced: BTreeMap<String, u64>,
    /// Each response's line that counts so far, with its place in the file.
    responses: HashMap<&'f str, (Ix, &'f Facts)>,
    /// Per entry entered: the scalars before it, and where its undo records
    /// start.
    marks: Vec<(Scalars, usize)>,
    undo: Vec<Undo<'f>>,
}

/// The figures of an [`Account`] that are plain values.
#[derive(Debug, Clone, Copy, Default)]
struct Scalars {
    entries: u64,
    turns: Turns,
    usage: Usage,
    cost: Option<f64>,
    first: Option<u64>,
    last: Option<u64>,
}

/// A map's value before a step changed it (`None`: it had none).
enum Undo<'f> {
    Tool(String, Option<ToolUse>),
    Model(String, Option<u64>),
    Unpriced(String, Option<u64>),
    Response(&'f str, Option<(Ix, &'f Facts)>),
}

impl<'f> Walk<'f> {
    fn enter(&mut self, at: Ix, f: Option<&'f Facts>) {
        self.marks.push((self.now, self.undo.len()));
        let Some(f) = f else {
            return;
        };
        self.now.entries += 1;
        if f.timestamp > 0 {
            self.now.first = Some(self.now.first.map_or(f.timestamp, |t| t.min(f.timestamp)));
            self.now.last = Some(self.now.last.map_or(f.timestamp, |t| t.max(f.timestamp)));
        }
        for name in &f.calls {
            self.tool(name, |t| t.calls += 1);
        }
        match f.kind {
            MessageKind::User => self.now.turns.user += 1,
            MessageKind::ToolResult => {
                self.now.turns.tool_result += 1;
                if let Some((tool, true)) = &f.result {
                    self.tool(tool, |t| t.errors += 1);
                }
            }
            MessageKind::Custom => self.now.turns.custom += 1,
            MessageKind::Assistant => match f.response.as_deref() {
                None => self.turn(f, 1),
                Some(id) => match self.responses.get(id).copied() {
                    None => {
                        self.undo.push(Undo::Response(id, None));
                        self.responses.insert(id, (at, f));
                        self.turn(f, 1);
                    }
                    // The response's last line in the file counts, as in
                    // [`Account::of`].
                    Some(best) if at > best.0 => {
                        self.undo.push(Undo::Response(id, Some(best)));
                        self.responses.insert(id, (at, f));
                        self.turn(best.1, -1);
                        self.turn(f, 1);
                    }
                    Some(_) => {}
                },
            },
        }
    }

    /// Adds (`sign` 1) or takes away (-1) one assistant turn's figures.
    fn turn(&mut self, f: &Facts, sign: i8) {
        let u = &mut self.now.usage;
        let step = |total: &mut u64, n: u64| {
            *total = if sign > 0 {
                total.saturating_add(n)
            } else {
                total.saturating_sub(n)
            };
        };
        step(&mut u.input, f.usage.input);
        step(&mut u.output, f.usage.output);
        step(&mut u.cache_read, f.usage.cache_read);
        step(&mut u.cache_write, f.usage.cache_write);
        step(&mut u.cache_write_1h, f.usage.cache_write_1h);
        u.total_tokens = u
            .input
            .saturating_add(u.output)
            .saturating_add(u.cache_read)
            .saturating_add(u.cache_write);
        let turns = &mut self.now.turns.assistant;
        step(turns, 1);
        if let Some(c) = f.cost {
            let sum = self.now.cost.unwrap_or(0.0);
            self.now.cost = Some(if sign > 0 { sum + c } else { sum - c });
        }
        if let Some(model) = &f.model {
            let by = |n: &mut u64| step(n, 1);
            count(&mut self.models, &mut self.undo, model, Undo::Model, by);
        }
        if f.unpriced {
            let model = f.model.as_deref().unwrap_or_default();
            let by = |n: &mut u64| step(n, 1);
            count(
                &mut self.unpriced,
                &mut self.undo,
                model,
                Undo::Unpriced,
                by,
            );
        }
    }

    fn tool(&mut self, name: &str, change: impl FnOnce(&mut ToolUse)) {
        count(&mut self.tools, &mut self.undo, name, Undo::Tool, change);
    }

    fn leave(&mut self) {
        let (now, mark) = self.marks.pop().expect("left as entered");
        self.now = now;
        while self.undo.len() > mark {
            match self.undo.pop().expect("above the mark") {
                Undo::Tool(name, before) => restore(&mut self.tools, name, before),
                Undo::Model(name, before) => restore(&mut self.models, name, before),
                Undo::Unpriced(name, before) => restore(&mut self.unpriced, name, before),
                Undo::Response(id, before) => match before {
                    Some(f) => {
                        self.responses.insert(id, f);
                    }
                    None => {
                        self.responses.remove(id);
                    }
                },
            }
        }
    }

    fn account(&self) -> Account {
        let n = self.now;
        Account {
            entries: n.entries,
            turns: n.turns,
            usage: n.usage,
            cost: n.cost,
            tools: self.tools.clone(),
            models: self.models.clone(),
            unpriced: self.unpriced.clone(),
            first: n.first,
            last: n.last,
        }
    }
}

/// Changes the count under `key`, logging its value before.
fn count<'f, T: Default + Clone + PartialEq>(
    map: &mut BTreeMap<String, T>,
    undo: &mut Vec<Undo<'f>>,
    key: &str,
    log: impl FnOnce(String, Option<T>) -> Undo<'f>,
    change: impl FnOnce(&mut T),
) {
    undo.push(log(key.to_string(), map.get(key).cloned()));
    let value = tally(map, key);
    change(value);
    if *value == T::default() {
        map.remove(key);
    }
}

fn restore<T>(map: &mut BTreeMap<String, T>, key: String, before: Option<T>) {
    match before {
        Some(v) => {
            map.insert(key, v);
        }
        None => {
            map.remove(&key);
        }
    }
}
