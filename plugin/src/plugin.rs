//! The plugin: one synthesiser playing the instrument the parameters
//! describe, as nice-plug's `Plugin` (with its CLAP and VST3 descriptions).
//!
//! Lifecycle contract: `activate` builds the synthesiser for the host's sample rate
//! (the only place that allocates); `process` and `reset` run on the audio thread
//! and never allocate, lock or block.

#[cfg(test)]
mod audio_isolation;

use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};

use nice_plug::prelude::*;
use orchard_engine::instrument::Preset;
use orchard_engine::rt::{InstrumentLoader, Synth};

use crate::background::{Rebuilds, Task};
use crate::link::{self, AudioLink, EditorLink};
use crate::params::{self, OrchardParams};
use crate::sound::{self, SoundSettings};
use crate::{background, events, output_guard, standalone};

/// The plugin: one synthesiser playing the instrument the parameters describe.
pub struct Orchard {
    params: Arc<OrchardParams>,
    synth: Option<Box<Synth>>,
    /// The host's sample rate, Hz, from `activate`.
    sample_rate: Option<f64>,
    /// The running synthesiser's loader, used by the background thread only.
    loader: Arc<Mutex<Option<InstrumentLoader>>>,
    /// What was built last, and whether a rebuild is under way.
    rebuilds: Rebuilds,
    /// The editor's side of the link to the audio thread.
    link: Arc<EditorLink>,
    /// The audio thread's side: notes from the on-screen keyboard, the scope.
    audio_link: AudioLink,
    /// The standalone app's recorder and MIDI file player (`None` in
    /// plugin hosts: see [`standalone`]).
    standalone: Option<standalone::StandaloneAudio>,
}

impl Orchard {
    /// Makes every `Orchard` in this process play `preset` instead of the
    /// instrument parameter's built-in one (the standalone app's `--preset`;
    /// plugin hosts never call it). Returns false, changing nothing, if a
    /// preset was already chosen.
    pub fn set_default_preset(preset: Preset) -> bool {
        sound::set_base_preset(preset)
    }
}

impl Default for Orchard {
    fn default() -> Self {
        let (editor_link, audio_link) = link::link();
        let params = Arc::new(OrchardParams::default());
        let standalone = standalone::session().and_then(|session| session.attach(&params));
        Self {
            params,
            synth: None,
            sample_rate: None,
            loader: Arc::new(Mutex::new(None)),
            rebuilds: Rebuilds::default(),
            link: Arc::new(editor_link),
            audio_link,
            standalone,
        }
    }
}

impl Plugin for Orchard {
    const NAME: &'static str = "Orchard";
    const VENDOR: &'static str = "Orchard";
    const URL: &'static str = "https://crates.io/crates/orchard";
    const EMAIL: &'static str = "orchard@example.invalid";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");

    const AUDIO_IO_LAYOUTS: &'static [AudioIOLayout] = &[AudioIOLayout {
        main_input_channels: None,
        main_output_channels: NonZeroU32::new(2),
        ..AudioIOLayout::const_default()
    }];
    const MIDI_INPUT: MidiConfig = MidiConfig::MidiCCs;
    const SAMPLE_ACCURATE_AUTOMATION: bool = true;

    #[cfg(feature = "editor")]
    type Editor = crate::editor::window::OrchardEditor;
    #[cfg(not(feature = "editor"))]
    type Editor = ();
    type SysExMessage = ();
    type BackgroundTask = Task;

    fn params(&self) -> Arc<dyn Params> {
        self.params.clone()
    }

    /// The editor, except in Orchard's VST3: there the parameters and the
    /// link go to Orchard's own editor view (`vst3_export`) and nice-plug's
    /// wrapper gets none.
    #[cfg(feature = "editor")]
    fn editor(&mut self, _executor: AsyncExecutor<Self>) -> Option<Self::Editor> {
        if crate::editor::handoff::hand_over(&self.params, &self.link) {
            return None;
        }
        crate::editor::create(Arc::clone(&self.params), Arc::clone(&self.link))
    }

    /// States from older versions load as this build's: one without an
    /// instrument state (Orchard 0.1.0's) as the default instrument, one
    /// without a list of MIDI bindings with none.
    fn filter_state(state: &mut PluginState) {
        params::upgrade_state(state);
    }

    fn task_executor(&mut self) -> TaskExecutor<Self> {
        self.rebuilds
            .executor(Arc::clone(&self.loader), Arc::clone(&self.params))
    }

    fn activate(
        &mut self,
        _audio_io_layout: &AudioIOLayout,
        buffer_config: &BufferConfig,
        context: &mut impl ActivateContext<Self>,
    ) -> bool {
        let sample_rate = f64::from(buffer_config.sample_rate);
        // Every family's mechanics (88 keys of a grand's action, a clock's
        // movement stepping through its blows with a bounded number of steps
        // a control period) run inline, in lock-step: no added latency,
        // sample-accurate, allocation-free like the rest of `process`, and
        // the same samples whether the host plays live, renders faster than
        // real time or bounces offline.
        let settings = SoundSettings::from_params(&self.params);
        let preset = settings.instrument_with(&self.params.edits());
        match Synth::new(&preset, sample_rate) {
            Ok(mut synth) => {
                context.set_latency_samples(synth.latency() as u32);
                if let Ok(mut loader) = self.loader.lock() {
                    *loader = synth.take_loader();
                }
                self.link.set_views(synth.take_views());
                self.sample_rate = Some(sample_rate);
                self.synth = Some(Box::new(synth));
                self.rebuilds.built(settings, self.params.state.version());
                let rate = buffer_config.sample_rate.round() as u32;
                if let Some(audio) = self.standalone.as_mut() {
                    audio.tap.set_sample_rate(rate);
                }
                if let Some(session) = standalone::session() {
                    session.transport.activated(rate);
                }
                true
            }
            Err(error) => {
                nice_error!("Orchard cannot run at this sample rate: {error}");
                false
            }
        }
    }

    /// Waits (a short while at most) for a rebuild in progress, so no
    /// background task outlives the synthesiser it builds for.
    fn deactivate(&mut self) {
        self.rebuilds.finish();
        if let Ok(mut loader) = self.loader.lock() {
            *loader = None;
        }
        self.link.set_views(None);
        self.synth = None;
        self.sample_rate = None;
    }

    fn reset(&mut self) {
        if let Some(synth) = self.synth.as_mut() {
            synth.reset();
        }
    }

    /// One block: ask for a rebuild if the sound changed, play the block's
    /// events (MIDI learn on the way), ask for the controllers' property
    /// moves to be applied, then the output level, the guard, and the
    /// block to the editor's scope and the standalone app's recorder.
    fn process(
        &mut self,
        buffer: &mut Buffer,
        _aux: &mut AuxiliaryBuffers,
        context: &mut impl ProcessContext<Self>,
    ) -> ProcessStatus {
        let Some(synth) = self.synth.as_deref_mut() else {
            return ProcessStatus::Error("process called before activate");
        };
        let [left, right] = buffer.as_slice() else {
            return ProcessStatus::Error("Orchard renders exactly two output channels");
        };
        self.rebuilds.request_if_changed(&self.params, context);
        let sample_rate_hz = self.sample_rate.unwrap_or(0.0) as f32;
        let played = events::played(
            &mut self.audio_link,
            context,
            &self.params,
            &self.link,
            sample_rate_hz,
        );
        match self.standalone.as_mut() {
            Some(standalone) => standalone.play(synth, left, right, played),
            None => synth.process_events(left, right, played),
        }
        background::request_controller_moves(&self.params, context);
        apply_output_level(&self.params.host.output_level.smoothed, left, right);
        output_guard::guard(left);
        output_guard::guard(right);
        self.audio_link.send_scope(&self.link, left, right);
        if let Some(audio) = self.standalone.as_mut() {
            audio.tap.samples(left, right);
        }
        if synth.is_active() {
            ProcessStatus::KeepAlive
        } else {
            ProcessStatus::Normal
        }
    }
}

/// Scales both channels by the output level, gliding sample by sample; a
/// host that sends NaN or infinity for the level gets silence for those
/// samples, never a non-finite output.
fn apply_output_level(level: &Smoother<f32>, left: &mut [f32], right: &mut [f32]) {
    for (l, r) in left.iter_mut().zip(right.iter_mut()) {
        let gain = level.next();
        let gain = if gain.is_finite() { gain } else { 0.0 };
        *l *= gain;
        *r *= gain;
    }
}

impl ClapPlugin for Orchard {
    const CLAP_ID: &'static str = "org.orchard-instruments.orchard";
    const CLAP_DESCRIPTION: Option<&'static str> =
        Some("Physically modelled grand piano: felt hammers striking strings");
    const CLAP_MANUAL_URL: Option<&'static str> = None;
    const CLAP_SUPPORT_URL: Option<&'static str> = None;
    const CLAP_FEATURES: &'static [ClapFeature] = &[
        ClapFeature::Instrument,
        ClapFeature::Synthesizer,
        ClapFeature::Stereo,
    ];
}

impl Vst3Plugin for Orchard {
    const VST3_CLASS_ID: [u8; 16] = *b"OrchardPianoInst";
    const VST3_SUBCATEGORIES: &'static [Vst3SubCategory] =
        &[Vst3SubCategory::Instrument, Vst3SubCategory::Synth];
}
