//! Times as `log --since` and `--until` take them, as git takes them, in
//! local time: `2025-12-02`, `2025-12-02 09:03`, `2025-12-02T09:03:00Z`,
//! `yesterday`, `today`, `now`, `3 days ago`, `2.weeks.ago`, `@1764666000`.

use jiff::{Span, Timestamp, ZonedDateTime, civil};

/// The moment `text` names, `now` being the clock and its time zone; the
/// error says what forms are taken.
pub fn parse_when(text: &str, now: &ZonedDateTime) -> Result<Timestamp, String> {
    let t = text.trim();
    let refused = || {
        format!(
            "'{text}' is not a time: give a date (2025-12-02), a date and time \
             (2025-12-02 09:03), `yesterday`, or `N days ago` (seconds, minutes, hours, \
             days, weeks, months, years)"
        )
    };
    let lower = t.to_ascii_lowercase();
    let midnight = |z: &ZonedDateTime| z.start_of_day().map(|z| z.timestamp());
    match lower.as_str() {
        "now" => return Ok(now.timestamp()),
        "today" => return midnight(now).map_err(|e| e.to_string()),
        "yesterday" => {
            let day = now
                .checked_sub(Span::new().days(1))
                .map_err(|e| e.to_string())?;
            return midnight(&day).map_err(|e| e.to_string());
        }
        _ => {}
    }
    if let Some(secs) = t.strip_prefix('@') {
        let secs: i64 = secs.parse().map_err(|_| refused())?;
        return Timestamp::from_second(secs).map_err(|e| e.to_string());
    }
    if let Some(ago) = ago(&lower) {
        let (n, unit) = ago.ok_or_else(refused)?;
        let span = match unit {
            Unit::Second => Span::new().try_seconds(n),
            Unit::Minute => Span::new().try_minutes(n),
            Unit::Hour => Span::new().try_hours(n),
            Unit::Day => Span::new().try_days(n),
            Unit::Week => Span::new().try_weeks(n),
            Unit::Month => Span::new().try_months(n),
            Unit::Year => Span::new().try_years(n),
        }
        .map_err(|e| e.to_string())?;
        return now
            .checked_sub(span)
            .map(|z| z.timestamp())
            .map_err(|e| e.to_string());
    }
    if let Ok(ts) = t.parse::<Timestamp>() {
        return Ok(ts);
    }
    let local = |dt: civil::DateTime| {
        dt.to_zoned_datetime(now.time_zone().clone())
            .map(|z| z.timestamp())
            .map_err(|e| e.to_string())
    };
    // A date alone is its midnight (jiff reads a date as a date-time at
    // midnight, and a date-time as a date by dropping its time: the
    // date-time first).
    if let Ok(dt) = t.replacen(' ', "T", 1).parse::<civil::DateTime>() {
        return local(dt);
    }
    Err(refused())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Second,
    Minute,
    Hour,
    Day,
    Week,
    Month,
    Year,
}

/// `3 days ago`, `3.days.ago`, `a week ago`: `None` when the text does not
/// end in `ago`, `Some(None)` when it does and is not understood.
fn ago(text: &str) -> Option<Option<(i64, Unit)>> {
    let words: Vec<&str> = text
        .split(|c: char| c == '.' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    let [n, unit, "ago"] = words.as_slice() else {
        return words.last().is_some_and(|w| *w == "ago").then_some(None);
    };
    let n = match *n {
        "a" | "an" | "one" => Some(1),
        n => n.parse::<i64>().ok(),
    };
    let unit = match unit.strip_suffix('s').unwrap_or(unit) {
        "sec" | "second" => Some(Unit::Second),
        "min" | "minute" => Some(Unit::Minute),
        "hour" => Some(Unit::Hour),
        "day" => Some(Unit::Day),
        "week" => Some(Unit::Week),
        "month" => Some(Unit::Month),
        "year" => Some(Unit::Year),
        _ => None,
    };
    Some(n.zip(unit))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> ZonedDateTime {
        "2025-12-02T09:04:00+01:00[+01:00]"
            .parse()
            .expect("a zoned time")
    }

    fn at(text: &str) -> String {
        parse_when(text, &now()).expect("parses").to_string()
    }

    #[test]
    fn dates_are_local_midnights_and_relative_times_count_back_from_now() {
        assert_eq!(at("2025-12-01"), "2025-11-30T23:00:00Z");
        assert_eq!(at("2025-12-01 10:30"), "2025-12-01T09:30:00Z");
        assert_eq!(at("2025-12-01T10:30:00Z"), "2025-12-01T10:30:00Z");
        assert_eq!(at("yesterday"), "2025-11-30T23:00:00Z");
        assert_eq!(at("today"), "2025-12-01T23:00:00Z");
        assert_eq!(at("2 hours ago"), "2025-12-02T06:04:00Z");
        assert_eq!(at("3.days.ago"), "2025-11-29T08:04:00Z");
        assert_eq!(at("a week ago"), "2025-11-25T08:04:00Z");
        assert_eq!(at("@0"), "1970-01-01T00:00:00Z");
    }

    #[test]
    fn what_is_not_a_time_is_refused_with_the_forms_taken() {
        for bad in ["soon", "3 fortnights ago", "2025-13-01", ""] {
            let e = parse_when(bad, &now()).expect_err(bad);
            assert!(e.contains("is not a time"), "{bad}: {e}");
        }
    }
}
