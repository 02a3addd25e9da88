//! `orchard analyze chiming-clock`: the beat a clock's going train keeps and
//! its chime and strike trains' cycles (see
//! [`orchard_engine::families::chiming_clock::ClockReport`]).

use orchard_engine::families::chiming_clock::ClockReport;
use orchard_engine::families::chiming_clock::ClockSpec;
use orchard_engine::instrument::Preset;

use crate::args::analyze::{AnalyzeArgs, DURATION};
use crate::overrides;

/// Simulated time of a clock's going train unless `--duration` says
/// otherwise, s: 25 swings of its balance.
pub const DEFAULT_DURATION_S: f64 = 10.0;

/// The instrument preset `name` if it is a clock (a built-in preset or a
/// file that loads and has a `[clock.NAME]`).
pub fn clock_preset(name: &str) -> Option<Preset> {
    Preset::load(name)
        .ok()
        .filter(|p| p.objects.of::<ClockSpec>().next().is_some())
}

/// The clock's report, with `--set` and `--seed` applied to `preset`.
pub fn run(mut preset: Preset, args: &AnalyzeArgs) -> Result<String, String> {
    overrides::apply(&mut preset, args.instrument.seed, &args.instrument.settings)?;
    let duration = args.duration.unwrap_or(DEFAULT_DURATION_S);
    DURATION
        .check("--duration", duration)
        .map_err(|e| format!("{e} for a clock"))?;
    ClockReport::measure(&preset, duration)
        .map(|report| report.to_string())
        .map_err(|e| e.to_string())
}
