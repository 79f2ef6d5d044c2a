//! What a model's tokens cost, for the formats that record usage but no
//! cost (Claude Code, Codex).
//!
//! The embedded table is taken from LiteLLM's
//! `model_prices_and_context_window.json` as of 2025-11-24 (the table
//! ccusage prices with): dollars per million tokens of input, output, cache
//! read and cache write, and, for the models priced in tiers, the prices of
//! the tokens above 200,000 in one request. A model is found by its exact
//! name, else by the longest name in the table that it starts with
//! (`claude-sonnet-4-5-20250929` is priced as `claude-sonnet-4-5`). A
//! model in no table has no cost.
//!
//! `YSESS_PRICES` names a JSON file whose prices come first:
//! `{"model": {"input": 3, "output": 15, "cache_read": 0.3, "cache_write":
//! 3.75}}`, dollars per million tokens, each field optional (0 when left
//! out); the command line reads it ([`Prices::parse`]) and installs it
//! ([`install`]).

use std::sync::OnceLock;

use crate::format::message::Usage;

/// Dollars per million tokens.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Price {
    /// Dollars per input token.
    pub input: f64,
    /// Dollars per output token.
    pub output: f64,
    /// Dollars per input token read from the cache.
    pub cache_read: f64,
    /// Dollars per input token written to the cache.
    pub cache_write: f64,
    /// The prices of the tokens above 200,000 in one request, where the
    /// model is priced in tiers.
    #[serde(skip)]
    pub above_200k: Option<[f64; 4]>,
}

const fn price(input: f64, output: f64, cache_read: f64, cache_write: f64) -> Price {
    Price {
        input,
        output,
        cache_read,
        cache_write,
        above_200k: None,
    }
}

const fn tiered(base: Price, above: [f64; 4]) -> Price {
    Price {
        above_200k: Some(above),
        ..base
    }
}

/// The embedded table (see the module's documentation for its source).
const TABLE: &[(&str, Price)] = &[
    ("claude-opus-4-5", price(5.0, 25.0, 0.5, 6.25)),
    ("claude-opus-4-1", price(15.0, 75.0, 1.5, 18.75)),
    ("claude-opus-4", price(15.0, 75.0, 1.5, 18.75)),
    (
        "claude-sonnet-4-5",
        tiered(price(3.0, 15.0, 0.3, 3.75), [6.0, 22.5, 0.6, 7.5]),
    ),
    (
        "claude-sonnet-4",
        tiered(price(3.0, 15.0, 0.3, 3.75), [6.0, 22.5, 0.6, 7.5]),
    ),
    ("claude-haiku-4-5", price(1.0, 5.0, 0.1, 1.25)),
    ("claude-3-7-sonnet", price(3.0, 15.0, 0.3, 3.75)),
    ("claude-3-5-sonnet", price(3.0, 15.0, 0.3, 3.75)),
    ("claude-3-5-haiku", price(0.8, 4.0, 0.08, 1.0)),
    ("claude-3-opus", price(15.0, 75.0, 1.5, 18.75)),
    ("claude-3-haiku", price(0.25, 1.25, 0.03, 0.3)),
    ("gpt-5.1-codex-mini", price(0.25, 2.0, 0.025, 0.0)),
    ("gpt-5.1-codex", price(1.25, 10.0, 0.125, 0.0)),
    ("gpt-5.1", price(1.25, 10.0, 0.125, 0.0)),
    ("gpt-5-codex", price(1.25, 10.0, 0.125, 0.0)),
    ("gpt-5-mini", price(0.25, 2.0, 0.025, 0.0)),
    ("gpt-5-nano", price(0.05, 0.4, 0.005, 0.0)),
    ("gpt-5", price(1.25, 10.0, 0.125, 0.0)),
    ("gpt-4.1", price(2.0, 8.0, 0.5, 0.0)),
    ("o4-mini", price(1.1, 4.4, 0.275, 0.0)),
    ("o3", price(2.0, 8.0, 0.5, 0.0)),
];

/// A price table read from a file, consulted before the embedded one.
#[derive(Debug, Clone, Default)]
pub struct Prices {
    table: Vec<(String, Price)>,
}

impl Prices {
    /// Reads a table of `{"model": {"input", "output", "cache_read",
    /// "cache_write"}}` (dollars per million tokens).
    pub fn parse(text: &str) -> Result<Prices, serde_json::Error> {
        let map: std::collections::BTreeMap<String, Price> = serde_json::from_str(text)?;
        Ok(Prices {
            table: map.into_iter().collect(),
        })
    }
}

static INSTALLED: OnceLock<Prices> = OnceLock::new();

/// Makes `prices` the table consulted before the embedded one, for the
/// rest of the process (the first call wins).
pub fn install(prices: Prices) {
    let _ = INSTALLED.set(prices);
}

/// The price of a model: from the installed table, else the embedded one;
/// by exact name, else by the longest name the model starts with.
pub fn price_of(model: &str) -> Option<Price> {
    let model = model.rsplit('/').next().unwrap_or(model);
    let installed = INSTALLED.get().map(|p| p.table.as_slice()).unwrap_or(&[]);
    let find = |table: &mut dyn Iterator<Item = (&str, Price)>| {
        let mut best: Option<(&str, Price)> = None;
        for (name, price) in table {
            if name == model {
                return Some(price);
            }
            if model.starts_with(name)
                && model[name.len()..].starts_with(['-', '@', ':'])
                && best.is_none_or(|(b, _)| name.len() > b.len())
            {
                best = Some((name, price));
            }
        }
        best.map(|(_, p)| p)
    };
    find(&mut installed.iter().map(|(n, p)| (n.as_str(), *p)))
        .or_else(|| find(&mut TABLE.iter().copied()))
}

/// What `usage` cost on `model`, in dollars; `None` for a model no table
/// prices. Tiered prices apply to each kind of token above 200,000.
pub fn cost(model: &str, usage: &Usage) -> Option<f64> {
    let price = price_of(model)?;
    let base = [
        price.input,
        price.output,
        price.cache_read,
        price.cache_write,
    ];
    let tokens = [
        usage.input,
        usage.output,
        usage.cache_read,
        usage.cache_write,
    ];
    let mut dollars = 0.0;
    for k in 0..4 {
        let n = tokens[k] as f64;
        dollars += match price.above_200k {
            Some(above) if n > 200_000.0 => 200_000.0 * base[k] + (n - 200_000.0) * above[k],
            _ => n * base[k],
        };
    }
    Some(dollars / 1_000_000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(input: u64, output: u64, cache_read: u64, cache_write: u64) -> Usage {
        Usage {
            input,
            output,
            cache_read,
            cache_write,
            total_tokens: input + output + cache_read + cache_write,
        }
    }

    #[test]
    fn a_dated_model_is_priced_as_its_family() {
        // 100k in at $3 a million, 10k out at $15.
        let c = cost("claude-sonnet-4-5-20250929", &usage(100_000, 10_000, 0, 0));
        assert!(c.is_some_and(|c| (c - 0.45).abs() < 1e-9), "{c:?}");
        let c = cost(
            "claude-haiku-4-5-20251001",
            &usage(1_000, 1_000, 10_000, 2_000),
        )
        .expect("priced");
        assert!((c - (0.001 + 0.005 + 0.001 + 0.0025)).abs() < 1e-12, "{c}");
        assert_eq!(cost("claude-opus-4-5", &usage(0, 0, 0, 0)), Some(0.0));
        // An exact name wins over a shorter prefix.
        assert_eq!(price_of("gpt-5-mini").map(|p| p.input), Some(0.25));
        assert!(price_of("some-local-model").is_none());
        // A name must end where a suffix starts: `o3` does not price `o3x`.
        assert!(price_of("o3x").is_none());
    }

    #[test]
    fn tokens_above_200k_are_priced_in_the_upper_tier() {
        let c = cost("claude-sonnet-4-5", &usage(300_000, 0, 0, 0)).expect("priced");
        assert!((c - (0.2 * 3.0 + 0.1 * 6.0)).abs() < 1e-9, "{c}");
    }

    #[test]
    fn a_price_file_reads_and_refuses_what_is_not_a_price() {
        let p = Prices::parse(r#"{"my-model": {"input": 2, "output": 4}}"#).expect("valid");
        assert_eq!(p.table[0].1.output, 4.0);
        assert!(Prices::parse(r#"{"m": {"inptu": 2}}"#).is_err());
        assert!(Prices::parse("[1]").is_err());
    }
}
