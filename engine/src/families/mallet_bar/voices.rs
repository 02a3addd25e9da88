//! The mallet bars' audio-rate side: each key's bar with its own mallet,
//! panned along the keyboard and mixed to stereo. Bars share no body and no
//! mallets, so each key runs on its own. The celesta plays the same voices
//! with its bars' boxes and dampers mounted ([`BarVoices::build`]).

use std::any::Any;

use crate::instrument::{BarError, BarParams, MalletBar, Preset, PresetError, Rebound};
use crate::rt::{
    CHUNK, Operation, SILENCE_LEVEL, SynthError, Voices, mix, stereo_gains, write_bus,
};

/// Every key's bar and mallet.
///
/// Allocates in [`BarVoices::new`] only; playing allocates nothing.
#[derive(Debug, Clone)]
pub struct BarVoices {
    lowest_key: u8,
    bars: Vec<MalletBar>,
    /// Left and right gains per key (equal-power pan times output gain).
    key_gains: Vec<[f64; 2]>,
    /// Each key's fundamental, Hz, from the lowest key up.
    pitches_hz: Vec<f64>,
    /// The mixing bus for one chunk.
    bus: Box<[[f64; 2]; CHUNK]>,
}

impl BarVoices {
    /// Builds every key's bar of `preset` at `sample_rate` (Hz).
    pub fn new(preset: &Preset, sample_rate: f64) -> Result<Self, SynthError> {
        Self::build(preset, |params, silence| {
            MalletBar::new(params, sample_rate, silence)
        })
    }

    /// Builds every key's bar of `preset` with `bar`, from the key's values
    /// and the pickup velocity (m/s) below which the bar counts as silent.
    pub fn build(
        preset: &Preset,
        mut bar: impl FnMut(&BarParams, f64) -> Result<MalletBar, BarError>,
    ) -> Result<Self, SynthError> {
        let (lowest, highest) = (preset.keyboard.lowest_key, preset.keyboard.highest_key);
        let gain = preset.output.gain_per_newton;
        let span = f64::from(highest - lowest).max(1.0);
        let mut bars = Vec::with_capacity(usize::from(highest - lowest) + 1);
        let mut key_gains = Vec::with_capacity(bars.capacity());
        let mut pitches_hz = Vec::with_capacity(bars.capacity());
        for key in lowest..=highest {
            let params = preset.bar_params(key).ok_or_else(|| {
                SynthError::Preset(PresetError::Topology(format!("key {key} has no bar")))
            })?;
            bars.push(
                bar(&params, SILENCE_LEVEL / gain).map_err(|e| SynthError::Voice(e.to_string()))?,
            );
            pitches_hz.push(params.fundamental_hz);
            key_gains.push(stereo_gains(&preset.output, f64::from(key - lowest) / span));
        }
        Ok(Self {
            lowest_key: lowest,
            bars,
            key_gains,
            pitches_hz,
            bus: Box::new([[0.0; 2]; CHUNK]),
        })
    }

    fn bar_mut(&mut self, key: u8) -> Option<&mut MalletBar> {
        let index = usize::from(key.checked_sub(self.lowest_key)?);
        self.bars.get_mut(index)
    }

    /// Whether `other` has the same keys, each bar with the same modes.
    pub fn same_shape(&self, other: &BarVoices) -> bool {
        self.lowest_key == other.lowest_key
            && self.bars.len() == other.bars.len()
            && self
                .bars
                .iter()
                .zip(&other.bars)
                .all(|(a, b)| a.same_shape(b))
    }
}

impl Voices for BarVoices {
    fn apply(&mut self, operation: Operation) {
        match operation {
            Operation::Strike { key, speed_m_s, .. } => {
                if let Some(bar) = self.bar_mut(key) {
                    bar.strike(speed_m_s);
                }
            }
            // A bar without a damper ignores it.
            Operation::Damper { key, amount } => {
                if let Some(bar) = self.bar_mut(key) {
                    bar.set_damper(amount >= 0.5);
                }
            }
            Operation::Impact { .. } | Operation::Pluck { .. } => {}
        }
    }

    fn render(
        &mut self,
        left: &mut [f32],
        right: &mut [f32],
        _on_rebound: &mut dyn FnMut(u8, usize, Rebound),
    ) {
        let frames = left.len().min(right.len()).min(CHUNK);
        let bus = &mut self.bus[..frames];
        bus.fill([0.0; 2]);
        for (bar, &gains) in self.bars.iter_mut().zip(&self.key_gains) {
            if bar.is_active() {
                mix(bus, gains, |_| bar.tick());
            }
        }
        write_bus(bus, left, right);
    }

    fn reset(&mut self) {
        for bar in &mut self.bars {
            bar.reset();
        }
    }

    fn continue_from(&mut self, old: &dyn Voices) -> bool {
        let Some(old) = old.as_any().downcast_ref::<BarVoices>() else {
            return false;
        };
        if !self.same_shape(old) {
            return false;
        }
        for (bar, old_bar) in self.bars.iter_mut().zip(&old.bars) {
            bar.continue_from(old_bar);
        }
        true
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn pitch_hz(&self, key: u8) -> Option<f64> {
        let index = usize::from(key.checked_sub(self.lowest_key)?);
        self.pitches_hz.get(index).copied()
    }

    fn is_active(&self) -> bool {
        self.bars.iter().any(MalletBar::is_active)
    }

    fn sounding_keys(&self) -> u32 {
        self.bars.iter().filter(|b| b.is_active()).count() as u32
    }

    fn non_finite_resets(&self) -> u64 {
        self.bars
            .iter()
            .map(|b| u64::from(b.non_finite_resets()))
            .sum()
    }
}
