//! Audio handed to Python: interleaved stereo `float32` samples in a
//! `bytearray`, which the Python half views as a numpy array of shape
//! (frames, 2) without copying.

use pyo3::prelude::*;
use pyo3::types::PyByteArray;

/// Bytes per interleaved stereo frame of `f32` samples.
pub const FRAME_BYTES: usize = 2 * std::mem::size_of::<f32>();

/// Interleaved stereo frames, grown block by block.
#[derive(Debug, Default)]
pub struct Interleaved {
    samples: Vec<f32>,
}

impl Interleaved {
    /// Room for `frames` frames.
    pub fn with_capacity(frames: usize) -> Self {
        Self {
            samples: Vec::with_capacity(2 * frames),
        }
    }

    /// Appends a block: the left and right channels.
    pub fn extend(&mut self, left: &[f32], right: &[f32]) {
        self.samples
            .extend(left.iter().zip(right).flat_map(|(&l, &r)| [l, r]));
    }

    /// The frames as a `bytearray` of native-endian `float32` samples.
    pub fn into_bytearray(self, py: Python<'_>) -> PyResult<Bound<'_, PyByteArray>> {
        let samples = self.samples;
        PyByteArray::new_with(py, samples.len() / 2 * FRAME_BYTES, |bytes| {
            for (out, sample) in bytes.chunks_exact_mut(4).zip(&samples) {
                out.copy_from_slice(&sample.to_ne_bytes());
            }
            Ok(())
        })
    }
}
