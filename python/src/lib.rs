//! Orchard from Python: the native half of the `orchard` package
//! (`orchard._native`). The Python half (`python/orchard/`) gives it its
//! public shape: numpy arrays, `mido` messages, keyword arguments.
//!
//! Everything here plays the engine the way the command line does, through
//! the same functions (`orchard_cli`), so a render from Python is the CLI's
//! bit for bit, and every error is the CLI's one-line reason, raised as
//! `orchard.OrchardError`. Rendering and measuring release the GIL.

use pyo3::prelude::*;

mod audio;
mod instrument;
mod note;
mod render;
mod score;
mod synth;
mod wav;

pyo3::create_exception!(
    _native,
    OrchardError,
    pyo3::exceptions::PyValueError,
    "Orchard refused an input (a preset, a MIDI file, a setting, a sample \
     rate); the message is the command line's one-line reason."
);

/// An `OrchardError` with `reason`.
fn refused(reason: impl Into<String>) -> PyErr {
    OrchardError::new_err(reason.into())
}

/// `sample_rate` (Hz) as a number, if an instrument can be built for it.
fn checked_rate(sample_rate: u32) -> PyResult<f64> {
    let rate = f64::from(sample_rate);
    orchard_engine::rt::check_sample_rate(rate).map_err(|e| refused(e.to_string()))?;
    Ok(rate)
}

/// `value` if it is a MIDI data byte (0 to 127), else the reason naming
/// `what` and the number.
fn seven_bit(what: &str, value: i64) -> PyResult<u8> {
    u8::try_from(value)
        .ok()
        .filter(|&byte| byte <= 127)
        .ok_or_else(|| refused(format!("{what} {value} must be 0 to 127")))
}

/// The `orchard._native` module.
#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add("OrchardError", py.get_type::<OrchardError>())?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add_class::<instrument::Instrument>()?;
    module.add_class::<score::Score>()?;
    module.add_class::<synth::Synth>()?;
    module.add_function(wrap_pyfunction!(instrument::presets, module)?)?;
    module.add_function(wrap_pyfunction!(render::render, module)?)?;
    module.add_function(wrap_pyfunction!(note::analyze_note, module)?)?;
    module.add_function(wrap_pyfunction!(wav::write_wav, module)?)?;
    Ok(())
}
