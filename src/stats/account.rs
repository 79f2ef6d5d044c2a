//! Summing the facts of a set of entries: [`Account`].

use super::*;

/// Turns by role: each message once (a Claude Code response once, however
/// many lines it takes).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Turns {
    /// User messages.
    pub user: u64,
    /// Assistant messages.
    pub assistant: u64,
    /// Tool results.
    pub tool_result: u64,
    /// Custom messages.
    pub custom: u64,
}

/// Calls of one tool.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ToolUse {
    /// Calls made.
    pub calls: u64,
    /// Tool results that say `isError`.
    pub errors: u64,
}

/// What a set of entries used.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Account {
    /// Entries of the user's tree in the set.
    pub entries: u64,
    /// Turns by role.
    pub turns: Turns,
    /// Tokens, summed over the assistant turns (`total_tokens` is the sum of
    /// the four kinds, whatever the messages say).
    pub usage: Usage,
    /// Dollars, summed over the turns that record a cost or are priced;
    /// `None` when none is. The whole's cost is known only when `unpriced`
    /// is empty: see [`Account::known_cost`].
    pub cost: Option<f64>,
    /// Assistant turns whose model has no price (their cost is unknown), by
    /// model.
    pub unpriced: BTreeMap<String, u64>,
    /// Tool calls and errors, by tool name.
    pub tools: BTreeMap<String, ToolUse>,
    /// Assistant turns, by model.
    pub models: BTreeMap<String, u64>,
    /// The earliest and the latest timestamp (ms), zero ones left out.
    pub first: Option<u64>,
    /// The latest timestamp.
    pub last: Option<u64>,
}

/// Widens the times `first..=last` to take in `timestamp` (0: no time).
pub fn widen(first: &mut Option<u64>, last: &mut Option<u64>, timestamp: u64) {
    if timestamp > 0 {
        *first = Some(first.map_or(timestamp, |t| t.min(timestamp)));
        *last = Some(last.map_or(timestamp, |t| t.max(timestamp)));
    }
}

/// Model calls as a total counts them: a line that is a call of its own
/// at once; a Claude Code response (written over several lines, each with
/// the usage so far) once, with its last line's, after the others, in the
/// order the responses began.
pub struct Calls<'a, T> {
    last: HashMap<&'a str, T>,
    order: Vec<&'a str>,
}

impl<T> Default for Calls<'_, T> {
    fn default() -> Self {
        Calls {
            last: HashMap::new(),
            order: Vec::new(),
        }
    }
}

impl<'a, T> Calls<'a, T> {
    /// `turn` back when it is a call of its own, to count now; a line of
    /// `response` is kept for [`Calls::responses`].
    pub fn take(&mut self, response: Option<&'a str>, turn: T) -> Option<T> {
        let Some(id) = response else {
            return Some(turn);
        };
        if self.last.insert(id, turn).is_none() {
            self.order.push(id);
        }
        None
    }

    /// Each response's last line, in the order the responses began.
    pub fn responses(mut self) -> impl Iterator<Item = T> {
        self.order
            .into_iter()
            .filter_map(move |id| self.last.remove(id))
    }
}

impl Account {
    /// The account of the entries `set` names (each once, in any order);
    /// entries without facts (folded out) are left out.
    pub fn of(facts: &[Option<Facts>], set: impl IntoIterator<Item = Ix>) -> Account {
        let mut ixs: Vec<Ix> = set.into_iter().collect();
        ixs.sort_unstable();
        ixs.dedup();
        let mut account = Account::default();
        let mut calls = Calls::default();
        for ix in ixs {
            let Some(f) = facts.get(ix as usize).and_then(Option::as_ref) else {
                continue;
            };
            account.entries += 1;
            widen(&mut account.first, &mut account.last, f.timestamp);
            for name in &f.calls {
                tally(&mut account.tools, name).calls += 1;
            }
            match f.kind {
                MessageKind::User => account.turns.user += 1,
                MessageKind::ToolResult => {
                    account.turns.tool_result += 1;
                    if let Some((tool, true)) = &f.result {
                        tally(&mut account.tools, tool).errors += 1;
                    }
                }
                MessageKind::Custom => account.turns.custom += 1,
                MessageKind::Assistant => {
                    if let Some(f) = calls.take(f.response.as_deref(), f) {
                        account.add_turn(f);
                    }
                }
            }
        }
        for f in calls.responses() {
            account.add_turn(f);
        }
        account
    }

    /// One assistant turn's usage, cost and model.
    fn add_turn(&mut self, f: &Facts) {
        self.turns.assistant += 1;
        self.usage.add(&f.usage);
        if let Some(c) = f.cost {
            self.cost = Some(self.cost.unwrap_or(0.0) + c);
        }
        if let Some(model) = &f.model {
            *tally(&mut self.models, model) += 1;
        }
        if f.unpriced {
            *tally(&mut self.unpriced, f.model.as_deref().unwrap_or_default()) += 1;
        }
    }

    /// The cost, when it is known: `None` when no turn has one, and when a
    /// turn's model has no price (then the sum of the others is not the
    /// cost).
    pub fn known_cost(&self) -> Option<f64> {
        self.cost.filter(|_| self.unpriced.is_empty())
    }

    /// Adds `other`'s figures to these: the account of two sets of entries
    /// that share none (two sessions).
    pub fn add(&mut self, other: &Account) {
        self.entries += other.entries;
        let (t, o) = (&mut self.turns, &other.turns);
        t.user += o.user;
        t.assistant += o.assistant;
        t.tool_result += o.tool_result;
        t.custom += o.custom;
        self.usage.add(&other.usage);
        if let Some(c) = other.cost {
            self.cost = Some(self.cost.unwrap_or(0.0) + c);
        }
        for (name, use_) in &other.tools {
            let mine = tally(&mut self.tools, name);
            mine.calls += use_.calls;
            mine.errors += use_.errors;
        }
        for (model, turns) in &other.models {
            *tally(&mut self.models, model) += turns;
        }
        for (model, turns) in &other.unpriced {
            *tally(&mut self.unpriced, model) += turns;
        }
        self.first = match (self.first, other.first) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.last = match (self.last, other.last) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
    }

    /// Milliseconds from the first timestamp to the last.
    pub fn wall_ms(&self) -> u64 {
        match (self.first, self.last) {
            (Some(first), Some(last)) => last - first,
            _ => 0,
        }
    }
}

/// The count kept under `key`, made on first use: the key is copied only
/// then (a set of many branches visits the same names millions of times).
pub(super) fn tally<'m, T: Default>(map: &'m mut BTreeMap<String, T>, key: &str) -> &'m mut T {
    if !map.contains_key(key) {
        map.insert(key.to_string(), T::default());
    }
    map.get_mut(key).expect("just made")
}

/// The entries of `set` grouped by a key (`None`: in no group), each group
/// in file order, the groups sorted by key.
pub fn group(
    facts: &[Option<Facts>],
    set: impl IntoIterator<Item = Ix>,
    key: impl Fn(&Facts) -> Option<String>,
) -> BTreeMap<String, Vec<Ix>> {
    let mut groups: BTreeMap<String, Vec<Ix>> = BTreeMap::new();
    for ix in set {
        if let Some(k) = facts
            .get(ix as usize)
            .and_then(Option::as_ref)
            .and_then(&key)
        {
            groups.entry(k).or_default().push(ix);
        }
    }
    for ixs in groups.values_mut() {
        ixs.sort_unstable();
        ixs.dedup();
    }
    groups
}
