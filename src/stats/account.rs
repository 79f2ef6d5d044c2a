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
    /// Dollars, summed over the turns that record a cost; `None` when none
    /// does.
    pub cost: Option<f64>,
    /// Tool calls and errors, by tool name.
    pub tools: BTreeMap<String, ToolUse>,
    /// Assistant turns, by model.
    pub models: BTreeMap<String, u64>,
    /// The earliest and the latest timestamp (ms), zero ones left out.
    pub first: Option<u64>,
    /// The latest timestamp.
    pub last: Option<u64>,
}

impl Account {
    /// The account of the entries `set` names (each once, in any order);
    /// entries without facts (folded out) are left out.
    pub fn of(facts: &[Option<Facts>], set: impl IntoIterator<Item = Ix>) -> Account {
        let mut ixs: Vec<Ix> = set.into_iter().collect();
        ixs.sort_unstable();
        ixs.dedup();
        let mut account = Account::default();
        // A Claude Code response counts once, with its last line's usage.
        let mut responses: HashMap<&str, &Facts> = HashMap::new();
        let mut order: Vec<&str> = Vec::new();
        for ix in ixs {
            let Some(f) = facts.get(ix as usize).and_then(Option::as_ref) else {
                continue;
            };
            account.entries += 1;
            if f.timestamp > 0 {
                account.first = Some(account.first.map_or(f.timestamp, |t| t.min(f.timestamp)));
                account.last = Some(account.last.map_or(f.timestamp, |t| t.max(f.timestamp)));
            }
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
                MessageKind::Assistant => match &f.response {
                    Some(id) => {
                        if responses.insert(id, f).is_none() {
                            order.push(id);
                        }
                    }
                    None => account.add_turn(f),
                },
            }
        }
        for id in order {
            account.add_turn(responses[id]);
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
