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
