//! What the unit tests share.

/// A xorshift generator: random trees that are the same on every run,
/// without a dependency.
pub struct Rng(pub u64);

impl Rng {
    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}
