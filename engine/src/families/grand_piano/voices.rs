//! The grand piano's audio-rate side: every key's strings, joined through
//! one bridge and soundboard where the piano has one and mixed to stereo,
//! playing the operations the action sends with a few hammers shared by all
//! the keys.

use std::any::Any;

use super::objects::{ActionSpec, DamperSet, SoundboardSpec};
use super::{HammerPool, SHARED_HAMMERS, StringKey};
use crate::instrument::{ContactTrace, Preset, PresetError, Rebound, StrikeReport, Topology};
use crate::resonators::{
    BRIDGE_BLOCK, BRIDGE_NODES, Bridge, KeyOnBridge, Keybed, KeybedHearing, KeybedParams,
    Placement, RadiationFilter, Soundboard, StringRadiation, microphone_trim,
};
use crate::rt::{
    CHUNK, Operation, SILENCE_LEVEL, SynthError, Voices, check_sample_rate, mix, stereo_gains,
    write_bus,
};

/// Every key's strings and the body they drive.
///
/// Strings strike with contact trees from one [`HammerPool`]; when it is
/// exhausted a strike steals the quietest contact or waits for one to let go
/// (see the pool's notes), and both are counted.
///
/// With a soundboard, every key's strings stand on one [`Bridge`]: the voices
/// then advance together, the bridge sample by sample and each key's strings
/// in chunks as far as their waves are known ahead, and a string whose damper is up
/// runs while the bridge moves, so that it can answer it (sympathetic
/// resonance); strings sleep only while a damper touches them, or when the
/// whole bridge has gone quiet. Without one, each key runs on its own.
///
/// Allocates in [`PianoVoices::new`] only; [`PianoVoices::apply`],
/// [`PianoVoices::render`] and [`PianoVoices::reset`] never allocate, lock or
/// panic.
#[derive(Debug, Clone)]
pub struct PianoVoices {
    lowest_key: u8,
    keys: Vec<StringKey>,
    /// The hammers the keys with strings share; owner `i` is `keys[i]`.
    hammers: HammerPool,
    /// Left and right gains per key (equal-power pan times output gain).
    key_gains: Vec<[f64; 2]>,
    /// The bridge and soundboard all the keys' strings stand on, if any.
    bridge: Option<Bridge>,
    /// Output gain per newton of bridge force (heard from the microphone),
    /// with the microphone's trim.
    gain_per_newton: f64,
    /// Samples rendered on the bridge, for its grid of blocks.
    clock: u64,
    /// The keys sounding in this block whose strings are known a whole
    /// block ahead even while struck, in key order (room for every key).
    whole: Vec<usize>,
    /// The other keys sounding in this block, in key order (room for every
    /// key).
    chunked: Vec<Sounding>,
    /// Per key: how hard its strings push on the bridge at each sample of
    /// the block, N.
    pushes: Vec<[f64; BRIDGE_BLOCK]>,
    /// Per key: the transverse part of those pushes, which the strings' own
    /// sound follows, N.
    heard: Vec<[f64; BRIDGE_BLOCK]>,
    /// Mixing buses for one chunk: bass-side and treble-side signal.
    bus: Box<[[f64; 2]; CHUNK]>,
    /// The keybed the keys knock on, if the instrument has an action.
    keybed: Option<Keybed>,
}

impl PianoVoices {
    /// Builds every key of `preset` at `sample_rate` (Hz), sharing
    /// [`SHARED_HAMMERS`] hammers.
    pub fn new(preset: &Preset, sample_rate: f64) -> Result<Self, SynthError> {
        Self::with_hammers(preset, sample_rate, SHARED_HAMMERS)
    }

    /// Builds every key of `preset` at `sample_rate` (Hz), sharing `hammers`
    /// hammer contact trees (at least one).
    pub fn with_hammers(
        preset: &Preset,
        sample_rate: f64,
        hammers: usize,
    ) -> Result<Self, SynthError> {
        check_sample_rate(sample_rate)?;
        let topology = preset.topology().map_err(SynthError::Preset)?;
        let (lowest, highest) = (preset.keyboard.lowest_key, preset.keyboard.highest_key);
        let gain = preset.output.gain_per_newton;
        let heard_gain = gain * microphone_trim(preset.output.microphone);
        let mut keys = Vec::with_capacity(usize::from(highest - lowest) + 1);
        let mut key_gains = Vec::with_capacity(keys.capacity());
        let span = f64::from(highest - lowest).max(1.0);
        let pan = |position: f64| stereo_gains(&preset.output, position);
        let bridge = topology.joined::<SoundboardSpec>().and_then(|board| {
            let mounts: Option<Vec<KeyOnBridge>> = (lowest..=highest)
                .map(|key| {
                    let params = preset.key_params(key)?;
                    Some(KeyOnBridge {
                        position: f64::from(key - lowest) / span,
                        admittance_s_per_kg: 1.0 / params.bridge_impedance_kg_s,
                        string_impedance_kg_s: params.strings as f64 * params.string.impedance(),
                    })
                })
                .collect();
            let pans = std::array::from_fn(|n| pan(n as f64 / (BRIDGE_NODES - 1) as f64));
            // Node pans carry the output gain; the bridge decides silence in
            // newtons of node force.
            let pans = pans.map(|[l, r]: [f64; 2]| [l / gain, r / gain]);
            let mut bridge = Bridge::new(
                &mounts?,
                Soundboard::new(&board.params(), sample_rate),
                pans,
                SILENCE_LEVEL / heard_gain,
                sample_rate,
            );
            if let Some(placement) =
                Placement::of_microphone(preset.output.microphone, preset.output.stereo_width)
            {
                // Each microphone hears every key's strings, and near the
                // board the board, from its own place.
                let density = board.surface_density_kg_m2;
                if placement.near_board {
                    bridge.hear_board(
                        &placement.board_paths(density, &board.params(), sample_rate),
                        sample_rate,
                    );
                }
                let weights = (lowest..=highest)
                    .map(|key| {
                        let params = preset.key_params(key)?;
                        Some(placement.string_weights(
                            f64::from(key - lowest) / span,
                            &params.string,
                            density,
                        ))
                    })
                    .collect::<Option<Vec<_>>>()?;
                let delays = (lowest..=highest)
                    .map(|key| placement.string_delays(f64::from(key - lowest) / span, sample_rate))
                    .collect();
                bridge.hear_strings(StringRadiation::new(
                    weights,
                    delays,
                    RadiationFilter::new(placement.strings_m, sample_rate),
                    sample_rate,
                ));
            }
            Some(bridge)
        });
        for key in lowest..=highest {
            let index = usize::from(key - lowest);
            let mut strings = build_key(
                preset,
                &topology,
                key,
                sample_rate,
                SILENCE_LEVEL / heard_gain,
                |f| {
                    bridge
                        .as_ref()
                        .map_or(1.0, |b| b.tuning_ratio(index, f, sample_rate))
                },
            )?;
            if let Some(bridge) = &bridge {
                strings.set_driven(bridge.is_coupled());
            }
            keys.push(strings);
            key_gains.push(pan(index as f64 / span));
        }
        // The pool's trees are valid at any sample rate that passed the check
        // above; the rate is all that can be wrong.
        let key_count = keys.len();
        let hammers = HammerPool::new(hammers, keys.len(), sample_rate)
            .map_err(|_| SynthError::SampleRate(sample_rate))?;
        Ok(Self {
            lowest_key: lowest,
            keys,
            hammers,
            key_gains,
            bridge,
            gain_per_newton: heard_gain,
            clock: 0,
            whole: vec![0; key_count],
            chunked: vec![Sounding::default(); key_count],
            pushes: vec![[0.0; BRIDGE_BLOCK]; key_count],
            heard: vec![[0.0; BRIDGE_BLOCK]; key_count],
            bus: Box::new([[0.0; 2]; CHUNK]),
            keybed: keybed(preset, &topology, key_count, sample_rate, heard_gain),
        })
    }

    /// The index of `key` in `keys` (its owner number in the pool).
    fn index(&self, key: u8) -> Option<usize> {
        let index = usize::from(key.checked_sub(self.lowest_key)?);
        (index < self.keys.len()).then_some(index)
    }

    fn key(&self, key: u8) -> Option<&StringKey> {
        self.keys.get(self.index(key)?)
    }

    fn key_mut(&mut self, key: u8) -> Option<&mut StringKey> {
        let index = self.index(key)?;
        self.keys.get_mut(index)
    }

    /// Carries out one operation of the action now.
    pub fn apply(&mut self, operation: Operation) {
        match operation {
            Operation::Strike {
                key,
                speed_m_s,
                shifted,
            } => {
                if let Some(index) = self.index(key) {
                    self.strike(index, speed_m_s, shifted);
                }
            }
            Operation::Damper { key, amount } => {
                let bridge_moves = self.bridge.as_ref().is_some_and(|b| !b.is_asleep());
                if let Some(strings) = self.key_mut(key) {
                    strings.set_damper_amount(amount);
                    // A damper lifting off a bridge that moves: the strings
                    // answer it from now on.
                    if bridge_moves && strings.is_undamped() {
                        strings.wake();
                    }
                }
            }
            // A key leaves let-off and goes on down to the keybed.
            Operation::Impact { site, speed_m_s } => {
                if let (Some(index), Some(keybed)) = (self.index(site), self.keybed.as_mut()) {
                    keybed.land(index, speed_m_s);
                }
            }
            // Nothing plucks.
            Operation::Pluck { .. } => {}
        }
    }

    /// Strikes `keys[index]` at `speed_m_s` with a hammer from the pool,
    /// stolen if need be, or deferred until one lets go (the damper lifts now
    /// either way); `shifted` by the una corda off the last string of a pair
    /// or triple.
    fn strike(&mut self, index: usize, speed_m_s: f64, shifted: bool) {
        // Strikes that have waited go first.
        self.serve_deferred();
        let key = &mut self.keys[index];
        let strings = key.string().len();
        // No bits selects every string.
        key.set_struck_strings(if shifted {
            (1u8 << (strings - 1)) - 1
        } else {
            0
        });
        let struck = key.strike(speed_m_s, &mut self.hammers, index);
        if !struck && !self.launch_stealing(index, speed_m_s) {
            self.hammers.defer(index, speed_m_s);
        }
    }

    /// Launches `keys[index]`'s hammer at `speed_m_s` with a contact stolen
    /// from the quietest key, if any can go without a click.
    fn launch_stealing(&mut self, index: usize, speed_m_s: f64) -> bool {
        let Some(victim) = self.hammers.steal_quietest() else {
            return false;
        };
        if let Some(key) = self.keys.get_mut(victim) {
            key.hammer_stolen();
        }
        self.keys[index].launch(speed_m_s, &mut self.hammers, index)
    }

    /// Launches the strikes that have waited, oldest first, while contacts are
    /// free or can be stolen.
    fn serve_deferred(&mut self) {
        while let Some((index, speed_m_s)) = self.hammers.next_deferred() {
            let launched = self.keys[index].launch(speed_m_s, &mut self.hammers, index)
                || self.launch_stealing(index, speed_m_s);
            if !launched {
                return;
            }
            self.hammers.pop_deferred();
        }
    }

    /// The strings `key`'s current (or last) strike hit, bit `i` for string
    /// `i` (`None` for a key the piano lacks).
    pub fn struck_strings(&self, key: u8) -> Option<u8> {
        self.key(key).map(StringKey::struck_strings)
    }

    /// Strikes that waited for a hammer to let go, so far.
    pub fn deferred_strikes(&self) -> u64 {
        self.hammers.deferred_strikes()
    }

    /// The shared hammers.
    pub fn hammers(&self) -> &HammerPool {
        &self.hammers
    }

    /// Renders `left.len()` frames (at most 256) into `left` and `right`.
    ///
    /// `on_rebound(key, frame, how)` hears of every hammer that lets go of its
    /// strings after a strike: at which frame of this call, and how.
    pub fn render(
        &mut self,
        left: &mut [f32],
        right: &mut [f32],
        mut on_rebound: impl FnMut(u8, usize, Rebound),
    ) {
        let frames = left.len().min(right.len()).min(CHUNK);
        self.bus[..frames].fill([0.0; 2]);
        let mut done = 0;
        while done < frames {
            self.serve_deferred();
            // While strikes wait, a contact may let go at any sample: go one
            // sample at a time (the same samples whatever the block size).
            let end = if self.hammers.has_deferred() {
                done + 1
            } else {
                frames
            };
            if self.bridge.is_some() {
                self.render_on_bridge(done, end, &mut on_rebound);
            } else {
                self.render_apart(done, end, &mut on_rebound);
            }
            done = end;
        }
        if let Some(keybed) = self.keybed.as_mut() {
            keybed.render(&mut self.bus[..frames]);
        }
        write_bus(&self.bus[..frames], left, right);
    }

    /// Renders frames `from..to` of the bus key by key: keys that share no
    /// bridge.
    fn render_apart(
        &mut self,
        from: usize,
        to: usize,
        on_rebound: &mut impl FnMut(u8, usize, Rebound),
    ) {
        let bus = &mut self.bus[from..to];
        let hammers = &mut self.hammers;
        for (key, (strings, &gains)) in
            (self.lowest_key..).zip(self.keys.iter_mut().zip(&self.key_gains))
        {
            if !strings.is_active() {
                continue;
            }
            let mut rebound = None;
            mix(bus, gains, |i| {
                let y = strings.tick(hammers);
                if let Some(how) = strings.take_rebound() {
                    rebound = Some((i, how));
                }
                y
            });
            if let Some((frame, how)) = rebound {
                on_rebound(key, from + frame, how);
            }
        }
    }

    /// Renders frames `from..to` of the bus with every sounding key's strings
    /// joined at the bridge, in blocks that end on the [`BRIDGE_BLOCK`] grid
    /// of samples rendered: there the bridge and quiet strings may go to
    /// rest, so what sounds does not depend on how the audio is divided.
    fn render_on_bridge(
        &mut self,
        from: usize,
        to: usize,
        on_rebound: &mut impl FnMut(u8, usize, Rebound),
    ) {
        let mut start = from;
        while start < to {
            let to_grid = BRIDGE_BLOCK - (self.clock % BRIDGE_BLOCK as u64) as usize;
            let samples = (to - start).min(to_grid);
            self.render_block(start, samples, on_rebound);
            start += samples;
            self.clock += samples as u64;
            if self.clock.is_multiple_of(BRIDGE_BLOCK as u64) {
                self.rest_quiet_strings();
            }
        }
    }

    /// Renders `samples` frames of the bus from `start`, the strings joined
    /// at the bridge. Each key runs in chunks as long as the waves reaching
    /// the bridge are known ahead, at most the whole block: its waves
    /// arriving at the bridge for a chunk at once, then, once the bridge's
    /// junction has been solved sample by sample through the chunk with
    /// every key's push, its strings and hammer through the chunk. Keys
    /// whose waves are known a whole block ahead even while a hammer strikes
    /// them push first, in key order, then the others, in key order: the
    /// same sums however the audio is divided.
    fn render_block(
        &mut self,
        start: usize,
        samples: usize,
        on_rebound: &mut impl FnMut(u8, usize, Rebound),
    ) {
        let Some(bridge) = self.bridge.as_mut() else {
            return;
        };
        if bridge.is_asleep() {
            if !self.keys.iter().any(StringKey::is_active) {
                return;
            }
            // The bridge starts moving: every string free to answer it runs.
            for key in &mut self.keys {
                if key.is_undamped() {
                    key.wake();
                }
            }
        }
        bridge.begin_block(samples);
        let (mut whole, mut chunked) = (0, 0);
        for k in 0..self.keys.len() {
            // The next key's waves are fetched while this one's arrive.
            if let Some(next) = self.keys.get(k + 1)
                && next.is_active()
            {
                next.prefetch();
            }
            let key = &mut self.keys[k];
            if key.is_active() {
                if key.lookahead_struck() >= BRIDGE_BLOCK {
                    key.begin_block(samples);
                    let (board, heard) =
                        (key.board_pushes(samples), key.transverse_pushes(samples));
                    bridge.push_block(k, board, heard);
                    self.whole[whole] = k;
                    whole += 1;
                } else {
                    let chunk = key.lookahead().min(BRIDGE_BLOCK);
                    let first = chunk.min(samples);
                    key.begin_block(first);
                    copy(key.board_pushes(first), &mut self.pushes[k]);
                    copy(key.transverse_pushes(first), &mut self.heard[k]);
                    self.chunked[chunked] = Sounding {
                        key: k,
                        chunk,
                        chunk_start: 0,
                    };
                    chunked += 1;
                }
            }
        }
        let chunked = &mut self.chunked[..chunked];
        let mut rebounds = Rebounds::default();
        for i in 0..samples {
            for s in chunked.iter_mut() {
                let k = s.key;
                if i == s.chunk_start + s.chunk {
                    let key = &mut self.keys[k];
                    // The last chunk is solved: it ends, the next arrives.
                    let chunk = s.chunk_start..i;
                    end_chunk(
                        key,
                        k,
                        bridge,
                        &mut self.hammers,
                        chunk,
                        start,
                        &mut rebounds,
                    );
                    let next = s.chunk.min(samples - i);
                    key.begin_block(next);
                    copy(key.board_pushes(next), &mut self.pushes[k][i..]);
                    copy(key.transverse_pushes(next), &mut self.heard[k][i..]);
                    s.chunk_start = i;
                }
                bridge.push(k, i, self.pushes[k][i], self.heard[k][i]);
            }
            let out = bridge.solve(i);
            self.bus[start + i] = [self.gain_per_newton * out[0], self.gain_per_newton * out[1]];
        }
        let whole = &self.whole[..whole];
        for (n, &k) in whole.iter().enumerate() {
            // The next key's waves are fetched while this one's leave.
            if let Some(next) = whole.get(n + 1).map(|&next| &self.keys[next]) {
                next.prefetch();
            }
            end_chunk(
                &mut self.keys[k],
                k,
                bridge,
                &mut self.hammers,
                0..samples,
                start,
                &mut rebounds,
            );
        }
        for s in chunked.iter() {
            end_chunk(
                &mut self.keys[s.key],
                s.key,
                bridge,
                &mut self.hammers,
                s.chunk_start..samples,
                start,
                &mut rebounds,
            );
        }
        rebounds.report(self.lowest_key, on_rebound);
    }

    /// At a block end on the grid: strings that have gone quiet under their
    /// dampers go to rest; if every sounding string is quiet and the bridge
    /// has been silent for 50 ms, everything goes to rest.
    fn rest_quiet_strings(&mut self) {
        let Some(bridge) = self.bridge.as_mut() else {
            return;
        };
        let mut all_quiet = true;
        for key in &mut self.keys {
            if key.is_active() {
                key.sleep_if_silent();
                all_quiet &= key.is_quiet();
            }
        }
        if bridge.rest_if_quiet(all_quiet) {
            for key in &mut self.keys {
                key.sleep_if_quiet();
            }
        }
    }

    /// Whether `other` has the same shape: the same keys, each with as many
    /// strings, as many shared hammers, and a soundboard if and only if this
    /// has one. Values (tuning, losses, hammers' felt, gains) may differ.
    pub fn same_shape(&self, other: &PianoVoices) -> bool {
        self.lowest_key == other.lowest_key
            && self.keys.len() == other.keys.len()
            && self
                .keys
                .iter()
                .zip(&other.keys)
                .all(|(a, b)| a.same_shape(b))
            && self.hammers.same_shape(&other.hammers)
            && self.bridge.is_some() == other.bridge.is_some()
    }

    /// Carries on everything sounding in `old`, a same-shaped instrument
    /// (see [`PianoVoices::same_shape`]) whose values differ: every key's waves,
    /// dampers, hammers in flight and strike reports, the strikes waiting for
    /// a hammer, the soundboard's ringing, the counts. From the next sample
    /// they play on with this instrument's values. Returns false, changing
    /// nothing, if the shapes differ.
    ///
    /// Allocates nothing, locks nothing: it may run on the audio thread.
    pub fn continue_from(&mut self, old: &PianoVoices) -> bool {
        if !self.same_shape(old) {
            return false;
        }
        self.hammers.continue_from(&old.hammers);
        for (key, old_key) in self.keys.iter_mut().zip(&old.keys) {
            key.continue_from(old_key, &mut self.hammers, &old.hammers);
        }
        if let (Some(bridge), Some(old_bridge)) = (self.bridge.as_mut(), old.bridge.as_ref()) {
            bridge.continue_from(old_bridge);
        }
        if let (Some(keybed), Some(old_keybed)) = (self.keybed.as_mut(), old.keybed.as_ref()) {
            keybed.continue_from(old_keybed);
        }
        self.clock = old.clock;
        true
    }

    /// Everything at rest.
    pub fn reset(&mut self) {
        for key in &mut self.keys {
            key.reset(&mut self.hammers);
        }
        self.hammers.reset();
        if let Some(bridge) = self.bridge.as_mut() {
            bridge.reset();
        }
        if let Some(keybed) = self.keybed.as_mut() {
            keybed.reset();
        }
    }
}

/// A key sounding in a block, run in chunks of samples.
#[derive(Debug, Clone, Copy, Default)]
struct Sounding {
    /// Its index in the keys.
    key: usize,
    /// Samples it runs at once (see [`StringKey::lookahead`]).
    chunk: usize,
    /// The first sample of the chunk it is in.
    chunk_start: usize,
}

/// Copies `from` to the start of `to` (a few values: a loop, not a call).
#[inline]
fn copy(from: &[f64], to: &mut [f64]) {
    for (t, &f) in to.iter_mut().zip(from) {
        *t = f;
    }
}

/// Finishes samples `samples` of the block (starting at frame `start` of the
/// bus) for key `keys[index]`, whose last chunk they are, once the bridge has
/// solved them: one by one while a hammer touches its strings (noting where
/// it lets go in `rebounds`), all at once otherwise.
fn end_chunk(
    key: &mut StringKey,
    index: usize,
    bridge: &Bridge,
    hammers: &mut HammerPool,
    samples: std::ops::Range<usize>,
    start: usize,
    rebounds: &mut Rebounds,
) {
    let mut velocities = [0.0; BRIDGE_BLOCK];
    let velocities = &mut velocities[..samples.len()];
    bridge.board_velocities(index, samples.start, velocities);
    if key.has_hammer() {
        for (offset, &velocity) in velocities.iter().enumerate() {
            key.end_sample(hammers, offset, velocity);
            rebounds.take_from(key, index, start + samples.start + offset);
        }
    } else {
        key.end_block(velocities);
    }
}

/// Damper decay time of strings that have no damper, s: never engaged, but the
/// strings need a finite value.
const NO_DAMPER_T60_S: f64 = 1e9;

/// Builds `key`'s strings as the topology says, designed for their tuning
/// times `bridge_tuning(tuning_hz)` (see [`Bridge::tuning_ratio`]).
fn build_key(
    preset: &Preset,
    topology: &Topology<'_>,
    key: u8,
    sample_rate: f64,
    silence_threshold: f64,
    bridge_tuning: impl Fn(f64) -> f64,
) -> Result<StringKey, SynthError> {
    let missing = || SynthError::Preset(PresetError::Topology(format!("key {key} has no values")));
    if topology.strings().is_none() {
        return Err(SynthError::Preset(PresetError::Topology(
            "a grand piano's keys strike strings".into(),
        )));
    }
    let mut params = preset.key_params(key).ok_or_else(missing)?;
    params.bridge_tuning = bridge_tuning(params.string.fundamental_hz);
    let dampers = topology.joined::<DamperSet>();
    let (t60, travel) = dampers.map_or((NO_DAMPER_T60_S, 0.006), |d| (d.t60_s, d.travel_s));
    let mut strings = StringKey::new(
        params,
        sample_rate,
        topology.hammers.start_gap_m,
        t60,
        travel,
        silence_threshold,
    )
    .map_err(|reason| SynthError::Voice(format!("key {key}: {reason}")))?;
    strings.set_has_damper(dampers.is_some_and(|d| d.damps(key)));
    Ok(strings)
}

/// Most rebounds one block can hold: one per hammer in flight, and there are
/// [`SHARED_HAMMERS`].
const MAX_REBOUNDS: usize = SHARED_HAMMERS;

/// The hammers that let go of their strings during one block, reported in
/// order of frame, then key: the same order whatever the block. Holds them
/// in place, allocating nothing.
struct Rebounds {
    /// (frame, key index, how).
    found: [(usize, usize, Rebound); MAX_REBOUNDS],
    count: usize,
}

impl Default for Rebounds {
    fn default() -> Self {
        let none = Rebound {
            speed_m_s: 0.0,
            peak_force_n: 0.0,
            impulse_n_s: 0.0,
        };
        Self {
            found: [(0, 0, none); MAX_REBOUNDS],
            count: 0,
        }
    }
}

impl Rebounds {
    /// Takes the rebound of `key` (index `index`), if it let go, at `frame`.
    fn take_from(&mut self, key: &mut StringKey, index: usize, frame: usize) {
        if let Some(how) = key.take_rebound()
            && let Some(slot) = self.found.get_mut(self.count)
        {
            *slot = (frame, index, how);
            self.count += 1;
        }
    }

    /// Reports every rebound through `on_rebound(key, frame, how)`.
    fn report(mut self, lowest_key: u8, on_rebound: &mut impl FnMut(u8, usize, Rebound)) {
        let found = &mut self.found[..self.count];
        found.sort_unstable_by_key(|&(frame, index, _)| (frame, index));
        for &(frame, index, how) in found.iter() {
            on_rebound(lowest_key + index as u8, frame, how);
        }
    }
}

/// The keybed the keys of `preset` land on, heard from its microphone
/// (`output_per_newton` output units per newton of bridge force): none
/// without an action or a board, or from the bridge, whose force is the
/// strings' and the board's alone.
fn keybed(
    preset: &Preset,
    topology: &Topology,
    keys: usize,
    sample_rate: f64,
    output_per_newton: f64,
) -> Option<Keybed> {
    let action = topology.joined::<ActionSpec>()?;
    let board = topology.joined::<SoundboardSpec>()?;
    let placement = Placement::of_microphone(preset.output.microphone, preset.output.stereo_width)?;
    let span = keys.saturating_sub(1).max(1) as f64;
    let hearing = KeybedHearing {
        output_per_newton,
        board_m: placement.board_m,
        board_density_kg_m2: board.surface_density_kg_m2,
        key_distances_m: (0..keys)
            .map(|k| std::array::from_fn(|side| placement.keybed_distance(side, k as f64 / span)))
            .collect(),
    };
    let params = KeybedParams {
        key_mass_kg: action.key_mass_kg,
        aftertouch_m: action.aftertouch_m,
        punching_stiffness_n_m: action.punching_stiffness_n_m,
        surface_density_kg_m2: action.keybed_density_kg_m2,
        level: action.knock_level,
        seed: u64::from(board.seed),
    };
    Some(Keybed::new(&params, &hearing, sample_rate, SILENCE_LEVEL))
}

impl Voices for PianoVoices {
    fn apply(&mut self, operation: Operation) {
        PianoVoices::apply(self, operation);
    }

    fn render(
        &mut self,
        left: &mut [f32],
        right: &mut [f32],
        on_rebound: &mut dyn FnMut(u8, usize, Rebound),
    ) {
        PianoVoices::render(self, left, right, on_rebound);
    }

    fn reset(&mut self) {
        PianoVoices::reset(self);
    }

    fn continue_from(&mut self, old: &dyn Voices) -> bool {
        old.as_any()
            .downcast_ref::<PianoVoices>()
            .is_some_and(|old| PianoVoices::continue_from(self, old))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn pitch_hz(&self, key: u8) -> Option<f64> {
        self.key(key).map(|k| k.params().string.fundamental_hz)
    }

    fn is_active(&self) -> bool {
        self.keys.iter().any(StringKey::is_active)
            || self.hammers.has_deferred()
            || self.bridge.as_ref().is_some_and(|b| !b.is_asleep())
            || self.keybed.as_ref().is_some_and(Keybed::is_ringing)
    }

    fn sounding_keys(&self) -> u32 {
        self.keys.iter().filter(|k| k.is_active()).count() as u32
    }

    fn non_finite_resets(&self) -> u64 {
        self.keys
            .iter()
            .map(|k| u64::from(k.non_finite_resets()))
            .sum()
    }

    fn stolen_contacts(&self) -> u64 {
        self.hammers.stolen_contacts()
    }

    fn resonator_energies(&self, out: &mut dyn FnMut(u8, f64)) {
        for (key, strings) in (self.lowest_key..).zip(&self.keys) {
            if strings.is_active() {
                out(key, strings.string_energy_j());
            }
        }
    }

    fn resonator_energy_j(&self, key: u8) -> f64 {
        self.key(key)
            .filter(|strings| strings.is_active())
            .map_or(0.0, StringKey::string_energy_j)
    }

    fn strike_report(&self, key: u8) -> Option<&StrikeReport> {
        self.key(key).map(StringKey::report)
    }

    fn contact_trace(&self, key: u8) -> Option<&ContactTrace> {
        self.key(key).map(StringKey::contact_trace)
    }
}
