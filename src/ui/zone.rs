//! The local time zone, as the C library finds it from `TZ`, read only
//! when a local time is shown.

/// The local time zone, read when first used: a command that shows no
/// local time (`fsck`, `status`) never reads it. Derefs to the zone.
#[derive(Default)]
pub struct Zone(std::sync::OnceLock<jiff::tz::TimeZone>);

impl std::ops::Deref for Zone {
    type Target = jiff::tz::TimeZone;

    fn deref(&self) -> &jiff::tz::TimeZone {
        self.0.get_or_init(|| {
            local_zone(std::env::var_os("TZ").as_deref()).unwrap_or(jiff::tz::TimeZone::UTC)
        })
    }
}

/// The largest zone file read: real ones are a few kilobytes.
const MAX_ZONE_FILE: u64 = 256 << 10;

/// The zone `TZ` names (as the C library reads it: empty or unset is
/// `/etc/localtime`, a leading `:` is dropped, an absolute path is a zone
/// file, else a name in the zone database, else a POSIX rule such as
/// `EST5EDT`), or `None` when it names none. Zone files are read as ysess
/// reads anything small: only a regular file, and only so far
/// (`TZ=/dev/zero` or a FIFO is no zone, and costs nothing).
fn local_zone(tz: Option<&std::ffi::OsStr>) -> Option<jiff::tz::TimeZone> {
    use std::path::{Component, Path, PathBuf};
    let text = tz.map(|t| t.to_str()).unwrap_or(Some(""))?;
    let name = text.strip_prefix(':').unwrap_or(text);
    let read = |path: &Path| {
        let bytes = crate::input::read_small(path, MAX_ZONE_FILE).ok()?;
        jiff::tz::TimeZone::tzif("Local", &bytes).ok()
    };
    if name.is_empty() {
        return read(Path::new("/etc/localtime"));
    }
    let path = Path::new(name);
    if path.is_absolute() {
        return read(path);
    }
    // A database name: plain components only, never out of the database.
    if path.components().all(|c| matches!(c, Component::Normal(_))) {
        let dirs = std::env::var_os("TZDIR")
            .map(PathBuf::from)
            .into_iter()
            .chain(
                [
                    "/usr/share/zoneinfo",
                    "/usr/lib/zoneinfo",
                    "/usr/share/lib/zoneinfo",
                    "/etc/zoneinfo",
                ]
                .map(PathBuf::from),
            );
        for dir in dirs {
            let file = dir.join(path);
            if file.exists() {
                return read(&file);
            }
        }
    }
    jiff::tz::TimeZone::posix(name).ok()
}

#[cfg(test)]
mod tests {
    use super::local_zone;
    use jiff::Timestamp;

    fn offset(tz: &jiff::tz::TimeZone) -> i32 {
        tz.to_offset(Timestamp::from_second(1_767_225_600).unwrap())
            .seconds()
    }

    #[test]
    fn a_zone_named_by_tz_is_read_from_a_regular_file_only() {
        // UTC and a POSIX rule need no file.
        assert_eq!(
            local_zone(Some("UTC0".as_ref())).map(|z| offset(&z)),
            Some(0)
        );
        assert_eq!(
            local_zone(Some("EST5EDT".as_ref())).map(|z| offset(&z)),
            Some(-5 * 3600)
        );
        // Devices and FIFOs are no zone, and are not read.
        assert!(local_zone(Some("/dev/zero".as_ref())).is_none());
        assert!(local_zone(Some(":/dev/urandom".as_ref())).is_none());
        assert!(local_zone(Some("../../../../dev/zero".as_ref())).is_none());
        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = dir.path().join("fifo");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .expect("mkfifo")
                .success()
        );
        assert!(local_zone(Some(fifo.as_os_str())).is_none());
    }
}
