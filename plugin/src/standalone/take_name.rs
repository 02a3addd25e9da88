//! Names of recorded takes: `orchard-2026-11-24-173139`, the take's start in
//! UTC (year, month, day, then hours, minutes and seconds), so that a folder
//! of takes sorts by time.

use std::time::{SystemTime, UNIX_EPOCH};

/// The file name, without extension, of a take started at `time`.
pub fn take_stem(time: SystemTime) -> String {
    let seconds = time
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs());
    let (year, month, day) = civil_date(seconds / 86_400);
    let of_day = seconds % 86_400;
    format!(
        "orchard-{year:04}-{month:02}-{day:02}-{:02}{:02}{:02}",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60
    )
}

/// The Gregorian date (year, month 1–12, day 1–31) `days` days after
/// 1970-01-01: count whole 400-year eras (146 097 days each), then the year
/// within the era, with years taken to start on 1 March so that the leap
/// day falls at a year's end.
fn civil_date(days: u64) -> (u64, u64, u64) {
    // Days since 0000-03-01 (719 468 days before 1970-01-01).
    let days = days + 719_468;
    let era = days / 146_097;
    let day_of_era = days % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    // Months from March: 153 days every five months.
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = era * 400 + year_of_era + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn at(seconds: u64) -> String {
        take_stem(UNIX_EPOCH + Duration::from_secs(seconds))
    }

    #[test]
    fn takes_are_named_by_their_utc_start() {
        assert_eq!(at(0), "orchard-1970-01-01-000000");
        // 2000-02-29 12:34:56 UTC, a leap day in a century leap year.
        assert_eq!(at(951_827_696), "orchard-2000-02-29-123456");
        // 2026-11-24 17:31:39 UTC.
        assert_eq!(at(1_795_541_499), "orchard-2026-11-24-173139");
        // The last second of 2023 and the first of 2024.
        assert_eq!(at(1_704_067_199), "orchard-2023-12-31-235959");
        assert_eq!(at(1_704_067_200), "orchard-2024-01-01-000000");
    }
}
