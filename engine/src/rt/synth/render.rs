//! Rendering audio: the voices chunk by chunk, the lock-step worker stepped at
//! its control samples, the worker's operations applied at their stamps,
//! prepared instruments installed at block starts, and the meters published
//! after every block.

use super::Synth;
use super::link::Link;
use super::loader::Prepared;
use crate::analysis::{peak, rms};
use crate::rt::TimedEvent;
use crate::rt::ops::{Operation, Stamped, ToWorker};
use crate::rt::voices::CHUNK;
use crate::signal::FlushDenormals;

impl Synth {
    /// Renders `left.len()` samples (the shorter of the two slices) into `left`
    /// and `right`, overwriting them.
    pub fn process(&mut self, left: &mut [f32], right: &mut [f32]) {
        self.render(left, right);
        self.finish_block(left, right);
    }

    /// Renders `left.len()` host samples without telling a realtime worker
    /// how far the audio has come: directly, or through the decimator when
    /// the instrument runs faster than the host.
    /// The room, if any, comes after.
    fn render(&mut self, left: &mut [f32], right: &mut [f32]) {
        self.render_dry(left, right);
        self.room.process(left, right);
    }

    /// Renders `left.len()` host samples of the instrument as it sounds
    /// before the room.
    fn render_dry(&mut self, left: &mut [f32], right: &mut [f32]) {
        let Some(mut decimator) = self.decimator.take() else {
            self.render_internal(left, right);
            return;
        };
        let frames = left.len().min(right.len());
        let mut done = 0;
        while done < frames {
            let n = (frames - done).min(CHUNK);
            let (inner_left, inner_right) = decimator.scratch(n);
            self.render_internal(inner_left, inner_right);
            decimator.decimate_scratch(&mut left[done..done + n], &mut right[done..done + n]);
            done += n;
        }
        self.decimator = Some(decimator);
    }

    /// Renders `left.len()` samples at the instrument's own rate.
    fn render_internal(&mut self, left: &mut [f32], right: &mut [f32]) {
        let frames = left.len().min(right.len());
        self.install_prepared_instrument();
        let _denormals = FlushDenormals::new();
        let mut done = 0;
        while done < frames {
            self.step_lock_step_worker();
            self.apply_due_operations();
            self.measure_resonator_energies();
            let mut n = (frames - done).min(CHUNK);
            if let Link::LockStep { period, .. } = &self.link {
                n = n.min((period - self.now % period) as usize);
            }
            if let Ok(next) = self.from_worker.peek()
                && next.at > self.now
            {
                n = n.min((next.at - self.now) as usize);
            }
            let (now, epoch) = (self.now, self.epoch);
            let (to_worker, dropped) = (&mut self.to_worker, &mut self.dropped_commands);
            self.voices.render(
                &mut left[done..done + n],
                &mut right[done..done + n],
                &mut |key, frame, how| {
                    let rebound = Stamped {
                        at: now + frame as u64,
                        epoch,
                        item: ToWorker::Rebound { key, rebound: how },
                    };
                    if to_worker.push(rebound).is_err() {
                        *dropped += 1;
                    }
                },
            );
            if let Some(old) = self
                .handover
                .crossfade(&mut left[done..done + n], &mut right[done..done + n])
            {
                self.retire(old);
            }
            done += n;
            self.now += n as u64;
        }
    }

    /// After a block: publishes the meters, and tells a realtime worker how
    /// far the audio has come.
    fn finish_block(&mut self, left: &[f32], right: &[f32]) {
        let frames = left.len().min(right.len());
        let level = |x: &[f32]| (peak(x) as f32, rms(x) as f32);
        let ((peak_l, rms_l), (peak_r, rms_r)) = (level(&left[..frames]), level(&right[..frames]));
        let counters = self.counters();
        let (samples, sounding_keys) = (self.samples_rendered(), self.voices.sounding_keys());
        let resonator_energy = &self.resonator_energy;
        self.meters.publish_with(|m| {
            m.samples = samples;
            m.peak = [peak_l, peak_r];
            m.rms = [rms_l, rms_r];
            m.sounding_keys = sounding_keys;
            m.late_operations = counters.late_operations;
            m.non_finite_resets = counters.non_finite_resets;
            m.resonator_energy_j = *resonator_energy;
        });
        self.clock_realtime_worker();
    }

    /// In realtime mode, after a block: every message before now has been sent,
    /// so the worker may step up to now. The worker finds it at its next poll
    /// (within `WORKER_POLL`); waking it would be a system call on the audio
    /// thread.
    fn clock_realtime_worker(&mut self) {
        if matches!(self.link, Link::Realtime { .. }) {
            self.send(ToWorker::Clock);
        }
    }

    /// In lock-step mode at a control sample: the worker handles every message
    /// so far and steps its grid up to this sample.
    fn step_lock_step_worker(&mut self) {
        let Link::LockStep { host, period } = &mut self.link else {
            return;
        };
        if !self.now.is_multiple_of(*period) {
            return;
        }
        let clock = Stamped {
            at: self.now + 1,
            epoch: self.epoch,
            item: ToWorker::Clock,
        };
        if self.to_worker.push(clock).is_err() {
            self.dropped_commands += 1;
        }
        host.drain(|_| {});
    }

    /// About 60 times a second: measures the energy on the strings of every
    /// sounding key, for the meters.
    fn measure_resonator_energies(&mut self) {
        // Nobody has taken the views: nobody reads the energies.
        if self.views.is_some() || self.now < self.next_energy_report {
            return;
        }
        self.next_energy_report = self.now + self.energy_interval;
        let energies = &mut self.resonator_energy;
        energies.fill(0.0);
        self.voices.resonator_energies(&mut |key, joules| {
            energies[usize::from(key)] = joules as f32;
        });
    }

    /// At the start of a block: installs an instrument the loader prepared. A
    /// live one of the running instrument's shape carries on everything
    /// sounding, the worker's operations on their way stay valid, and the
    /// output crossfades from the old voices for [`handover::HANDOVER_S`]
    /// (an instrument loaded meanwhile waits for the crossfade to end);
    /// otherwise everything playing stops and a new epoch begins. The old
    /// instrument goes back to the loader.
    fn install_prepared_instrument(&mut self) {
        if self.handover.is_active() {
            return;
        }
        let Ok(mut next) = self.instruments.pop() else {
            return;
        };
        let live = next.live
            && next.family == self.family
            && next.voices.continue_from(self.voices.as_ref());
        std::mem::swap(&mut self.voices, &mut next.voices);
        std::mem::swap(&mut self.preset, &mut next.preset);
        std::mem::swap(&mut self.family, &mut next.family);
        self.room.install(&mut next.room);
        if !live {
            self.epoch = self.epoch.wrapping_add(1);
        }
        self.send(ToWorker::Install { live });
        if live {
            if let Some(older) = self.handover.begin(next) {
                self.retire(older);
            }
        } else {
            while self.from_worker.pop().is_ok() {}
            self.retire(next);
        }
    }

    /// Sends a replaced instrument back to the loader to be freed.
    pub(super) fn retire(&mut self, old: Box<Prepared>) {
        if let Err(rtrb::PushError::Full(old)) = self.replaced.push(old) {
            // Never free on the audio thread: keep the memory instead.
            std::mem::forget(old);
        }
    }

    /// Carries out an operation now, on the voices and on those a handover
    /// is crossfading from.
    pub(super) fn apply_operation(&mut self, operation: Operation) {
        self.voices.apply(operation);
        self.handover.apply(operation);
    }

    /// Applies every operation stamped up to now; those stamped before now are
    /// late.
    fn apply_due_operations(&mut self) {
        while let Ok(op) = self.from_worker.peek() {
            if op.at > self.now {
                break;
            }
            let op = *op;
            let _ = self.from_worker.pop();
            if op.epoch != self.epoch {
                continue;
            }
            if op.at < self.now {
                self.late_operations += 1;
            }
            self.apply_operation(op.item);
        }
    }

    /// Renders a block with sample-accurate events: the audio up to each event's
    /// offset is rendered before the event applies. Events must come in
    /// non-decreasing offset order; offsets past the block apply at its end.
    pub fn process_events(
        &mut self,
        left: &mut [f32],
        right: &mut [f32],
        events: impl IntoIterator<Item = TimedEvent>,
    ) {
        let frames = left.len().min(right.len());
        let mut done = 0;
        for TimedEvent { offset, event } in events {
            let at = offset.clamp(done, frames);
            if at > done {
                self.render(&mut left[done..at], &mut right[done..at]);
                done = at;
            }
            self.apply(event);
        }
        self.render(&mut left[done..frames], &mut right[done..frames]);
        self.finish_block(left, right);
    }
}
