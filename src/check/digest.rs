//! `sha256:<hex>:<bytes>`: the digest that proves a file only grew.

use std::fmt;
use std::str::FromStr;

use sha2::{Digest as _, Sha256};

/// A digest of a file's first bytes: `sha256:<hex>:<bytes>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Digest {
    /// The SHA-256 of the file's first `bytes` bytes.
    pub sha256: [u8; 32],
    /// How many bytes it covers.
    pub bytes: u64,
}

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("sha256:")?;
        for b in self.sha256 {
            write!(f, "{b:02x}")?;
        }
        write!(f, ":{}", self.bytes)
    }
}

impl FromStr for Digest {
    type Err = String;

    /// Parses `sha256:<64 hex>:<bytes>`; anything after white space is
    /// ignored, so a line of `ysess fsck --digest` output can be passed whole.
    fn from_str(s: &str) -> Result<Digest, String> {
        let word = s.split_whitespace().next().unwrap_or("");
        let bad = || format!("`{word}` is not a digest of the form sha256:<64 hex digits>:<bytes>");
        let rest = word.strip_prefix("sha256:").ok_or_else(bad)?;
        let (hex, bytes) = rest.split_once(':').ok_or_else(bad)?;
        if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad());
        }
        let mut sha256 = [0u8; 32];
        for (i, out) in sha256.iter_mut().enumerate() {
            *out = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).map_err(|_| bad())?;
        }
        let bytes = bytes.parse().map_err(|_| bad())?;
        Ok(Digest { sha256, bytes })
    }
}

/// The text of a file that holds a digest (`status --digest FILE`): a
/// regular file, read only as far as a digest line goes, so that a device
/// or a FIFO named there is refused rather than read without end.
pub fn read_file(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    // A digest file is one short line; a big file is not one.
    let mut head = Vec::new();
    crate::input::open_regular(path)?
        .take(4096)
        .read_to_end(&mut head)?;
    Ok(head)
}

/// Feeds bytes in, in order; `finish` names how many were fed.
#[derive(Default, Clone)]
pub struct Hasher(Sha256);

impl Hasher {
    /// Takes the next bytes of the file.
    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// The digest of the `bytes` bytes taken.
    pub fn finish(self, bytes: u64) -> Digest {
        Digest {
            sha256: self.0.finalize().into(),
            bytes,
        }
    }
}

/// How a file stands against a digest taken of it earlier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// The same bytes.
    Unchanged,
    /// The digested bytes, then this many more: the file only grew.
    Appended(u64),
    /// It shrank, or a digested byte differs.
    Rewritten,
}

/// Reads `file` through, handing `chunk` each piece and the bytes before
/// it; the bytes read.
fn read_through(
    mut file: impl std::io::Read,
    mut chunk: impl FnMut(&[u8], u64),
) -> std::io::Result<u64> {
    let mut buf = vec![0u8; 64 << 10];
    let mut total = 0u64;
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) => return Ok(total),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        chunk(&buf[..n], total);
        total += n as u64;
    }
}

/// The digest of all of `file`, read through once.
pub fn of(file: impl std::io::Read) -> std::io::Result<Digest> {
    let mut hasher = Hasher::default();
    let total = read_through(file, |bytes, _| hasher.update(bytes))?;
    Ok(hasher.finish(total))
}

/// Reads `file` through once and says how it stands against `digest`.
pub fn compare(file: impl std::io::Read, digest: &Digest) -> std::io::Result<Change> {
    let mut hasher = Hasher::default();
    let total = read_through(file, |bytes, before| {
        let wanted = digest.bytes.saturating_sub(before).min(bytes.len() as u64) as usize;
        hasher.update(&bytes[..wanted]);
    })?;
    if total < digest.bytes || hasher.finish(digest.bytes) != *digest {
        return Ok(Change::Rewritten);
    }
    Ok(match total - digest.bytes {
        0 => Change::Unchanged,
        more => Change::Appended(more),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compare_tells_unchanged_appended_and_rewritten() {
        let mut h = Hasher::default();
        h.update(b"abc");
        let d = h.finish(3);
        assert_eq!(compare(&b"abc"[..], &d).unwrap(), Change::Unchanged);
        assert_eq!(compare(&b"abcdef"[..], &d).unwrap(), Change::Appended(3));
        assert_eq!(compare(&b"ab"[..], &d).unwrap(), Change::Rewritten);
        assert_eq!(compare(&b"abd"[..], &d).unwrap(), Change::Rewritten);
        assert_eq!(compare(&b"xbcdef"[..], &d).unwrap(), Change::Rewritten);
    }

    #[test]
    fn round_trips_and_matches_the_known_sha256_of_abc() {
        let mut h = Hasher::default();
        h.update(b"abc");
        let d = h.finish(3);
        let text = d.to_string();
        assert_eq!(
            text,
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad:3"
        );
        assert_eq!(text.parse::<Digest>(), Ok(d));
        assert_eq!(format!("{text}  session.jsonl").parse::<Digest>(), Ok(d));
        assert!("sha256:abc:3".parse::<Digest>().is_err());
    }
}
