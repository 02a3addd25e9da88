//! `orchard._native.analyze_note`: one key played and measured, as `orchard
//! analyze --note` measures it, returned as a dict (with the CLI's report).

use orchard_cli::note::{self, NoteFigures, PartialFigures};
use orchard_engine::analysis::TwoStageDecay;
use orchard_engine::instrument::StrikeReport;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::instrument::Instrument;
use crate::{refused, seven_bit};

/// Plays `key` at MIDI `velocity` on `instrument`, holds it for
/// `duration_s` (s) at `sample_rate` (Hz), and measures it. The GIL is
/// released while it plays and measures.
#[pyfunction]
#[pyo3(signature = (instrument, key, velocity=80, duration_s=note::DEFAULT_DURATION_S, sample_rate=48_000))]
pub fn analyze_note<'py>(
    py: Python<'py>,
    instrument: &Instrument,
    key: i64,
    velocity: i64,
    duration_s: f64,
    sample_rate: u32,
) -> PyResult<Bound<'py, PyDict>> {
    let key = seven_bit("key", key)?;
    // Within a byte, the CLI's own check (and its message) decides.
    let velocity = u8::try_from(velocity)
        .map_err(|_| refused(format!("velocity {velocity} must be 1 to 127")))?;
    let figures = py
        .detach(|| note::analyze(&instrument.preset, key, velocity, duration_s, sample_rate))
        .map_err(refused)?;
    figures_dict(py, &figures)
}

/// The figures as a dict: what was played, `strike`, `partials` (and how
/// they were measured), the fit's `b` and `f0_hz`, `tuning_cents`, the
/// level's decay times, and `report`, the text the CLI prints.
fn figures_dict<'py>(py: Python<'py>, figures: &NoteFigures) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("key", figures.key)?;
    dict.set_item("velocity", figures.velocity)?;
    dict.set_item("preset", &figures.preset_name)?;
    dict.set_item("duration_s", figures.duration_s)?;
    dict.set_item("sample_rate", figures.sample_rate)?;
    let strike = figures
        .strike
        .as_ref()
        .map(|s| strike_dict(py, s))
        .transpose()?;
    dict.set_item("strike", strike)?;
    put_decay(&dict, &figures.level_decay)?;
    let partials = PyList::empty(py);
    let (status, b, preset_b, f0_hz, tuning_cents, fitted) = match &figures.partials {
        PartialFigures::NotAString => ("not a string", None, None, None, None, Vec::new()),
        PartialFigures::TooFew { .. } => ("too few to fit", None, None, None, None, Vec::new()),
        PartialFigures::Fitted(fit) => {
            for p in &fit.partials {
                let row = PyDict::new(py);
                row.set_item("number", p.number)?;
                row.set_item("frequency_hz", p.frequency_hz)?;
                row.set_item("fit_hz", p.fit_hz)?;
                row.set_item("cents_off_fit", p.cents_off_fit())?;
                row.set_item("level_db", p.level_db)?;
                put_decay(&row, &p.decay.unwrap_or_default())?;
                partials.append(row)?;
            }
            (
                "fitted",
                Some(fit.fit.b),
                Some(fit.preset_b),
                Some(fit.fit.f0_hz),
                fit.tuning_cents(),
                fit.fitted.clone(),
            )
        }
    };
    dict.set_item("partials_measured", status)?;
    dict.set_item("partials", partials)?;
    dict.set_item("fitted_partials", fitted)?;
    dict.set_item("b", b)?;
    dict.set_item("preset_b", preset_b)?;
    dict.set_item("f0_hz", f0_hz)?;
    dict.set_item("tuning_cents", tuning_cents)?;
    dict.set_item("report", figures.report())?;
    Ok(dict)
}

/// Puts `t60_early_s` and `t60_late_s` (each `None` when not measured).
fn put_decay(dict: &Bound<'_, PyDict>, decay: &TwoStageDecay) -> PyResult<()> {
    dict.set_item("t60_early_s", decay.early_t60_s)?;
    dict.set_item("t60_late_s", decay.late_t60_s)
}

/// A strike as a dict: `strike_speed_m_s`, `first_touch_s`,
/// `contact_duration_s`, `contacts`, `force_pulses`, `peak_force_n` and
/// `restitution` (`None` where not measured).
pub fn strike_dict<'py>(py: Python<'py>, strike: &StrikeReport) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("strike_speed_m_s", strike.strike_speed_m_s)?;
    dict.set_item("first_touch_s", strike.first_touch_s)?;
    dict.set_item("contact_duration_s", strike.contact_duration_s)?;
    dict.set_item("contacts", strike.contacts)?;
    dict.set_item("force_pulses", strike.force_pulses)?;
    dict.set_item("peak_force_n", strike.peak_force_n)?;
    dict.set_item("restitution", strike.restitution())?;
    Ok(dict)
}
