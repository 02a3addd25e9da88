//! The least a host must be for a test to activate the plugin and run its
//! `process`: shared by the library's tests and the integration tests
//! (`#[path]`): the module that includes it has `Orchard` and `Task` in
//! scope.

use nice_plug::prelude::*;

use super::{Orchard, Task};

/// A host that runs background tasks nowhere (it counts them): the tests
/// are about `process`.
pub struct Host {
    transport: Transport,
    /// Background tasks asked for.
    pub tasks: std::cell::Cell<u32>,
}

impl ActivateContext<Orchard> for Host {
    fn plugin_api(&self) -> PluginApi {
        PluginApi::Clap
    }
    fn execute(&self, _task: Task) {}
    fn set_latency_samples(&self, _samples: u32) {}
    fn set_current_voice_capacity(&self, _capacity: u32) {}
}

impl ProcessContext<Orchard> for Host {
    fn plugin_api(&self) -> PluginApi {
        PluginApi::Clap
    }
    fn execute_background(&self, _task: Task) {
        self.tasks.set(self.tasks.get() + 1);
    }
    fn execute_gui(&self, _task: Task) {}
    fn transport(&self) -> &Transport {
        &self.transport
    }
    fn next_event(&mut self) -> Option<PluginNoteEvent<Orchard>> {
        None
    }
    fn try_send_event(
        &mut self,
        _event: PluginNoteEvent<Orchard>,
    ) -> Result<
        (),
        (
            PluginNoteEvent<Orchard>,
            nice_plug::context::process::SendEventError,
        ),
    > {
        Ok(())
    }
    fn set_latency_samples(&self, _samples: u32) {}
    fn request_restart(&self) {}
    fn set_current_voice_capacity(&self, _capacity: u32) {}
}

impl Host {
    /// A host at `sample_rate` Hz that has run no task.
    pub fn new(sample_rate: f32) -> Self {
        Self {
            transport: Transport::new(sample_rate),
            tasks: std::cell::Cell::new(0),
        }
    }
}

/// Runs the plugin's `process` once on `left` and `right` (one block of
/// their length), panicking if it allocates.
pub fn process_block(plugin: &mut Orchard, host: &mut Host, left: &mut [f32], right: &mut [f32]) {
    let frames = left.len().min(right.len());
    let mut buffer = Buffer::default();
    // SAFETY: both slices live until `process` returns.
    unsafe {
        buffer.set_slices(frames, |slices| {
            slices.clear();
            slices.push(&mut left[..frames]);
            slices.push(&mut right[..frames]);
        });
    }
    let mut aux = AuxiliaryBuffers {
        inputs: &mut [],
        outputs: &mut [],
    };
    nice_assert_no_alloc::assert_no_alloc(|| {
        let _ = plugin.process(&mut buffer, &mut aux, host);
    });
}
