//! The editor's way to the host in Orchard's VST3: what nice-plug calls a
//! `GuiContext`, written for Orchard's own editor view.
//!
//! An edit in the editor (a gesture on one parameter) becomes the host's
//! `IComponentHandler::beginEdit`, `performEdit` for each value and
//! `endEdit`, under the parameter's VST3 id; each value is also given to
//! the wrapper as the host's own `setParamNormalized` would be (the wrapper
//! applies it unless audio is being processed, when the host sends it back
//! through `process`). Everything here runs on the host's GUI thread.

use std::collections::HashMap;
use std::sync::{Arc, PoisonError, RwLock, Weak};

use nice_plug::context::PluginApi;
use nice_plug::context::gui::GuiContextInner;
use nice_plug::params::internals::ParamPtr;
use nice_plug::plugin::PluginState;
use nice_plug::prelude::nice_error;
use nice_plug::wrapper::vst3::Wrapper;
use nice_plug::wrapper::vst3::vst3::Steinberg::Vst::RestartFlags_::{
    kLatencyChanged, kParamValuesChanged,
};
use nice_plug::wrapper::vst3::vst3::Steinberg::Vst::{
    IComponentHandler, IComponentHandlerTrait, IComponentTrait, IEditControllerTrait, ParamID,
};
use nice_plug::wrapper::vst3::vst3::Steinberg::{IBStream, kResultOk};
use nice_plug::wrapper::vst3::vst3::{ComPtr, ComWrapper};

use super::stream::MemoryStream;
use crate::plugin::Orchard;

/// The wrapper an instance passes its calls on to.
pub type Inner = Wrapper<Orchard>;

/// The host's component handler, as the host last set it (or none).
#[derive(Default)]
pub struct HostHandler(RwLock<Option<ComPtr<IComponentHandler>>>);

impl HostHandler {
    /// Keeps `handler` (a new reference) in place of the one before.
    pub fn set(&self, handler: Option<ComPtr<IComponentHandler>>) {
        *self.0.write().unwrap_or_else(PoisonError::into_inner) = handler;
    }

    /// Calls `call` with the handler, if the host set one.
    fn with(&self, call: impl FnOnce(&ComPtr<IComponentHandler>)) {
        if let Some(handler) = &*self.0.read().unwrap_or_else(PoisonError::into_inner) {
            call(handler);
        }
    }
}

/// One instance's editor context.
pub struct EditorContext {
    wrapper: Weak<Inner>,
    handler: Arc<HostHandler>,
    /// Each of Orchard's parameters' VST3 id.
    ids: HashMap<ParamPtr, ParamID>,
}

impl EditorContext {
    /// The context for the instance whose wrapper is `wrapper`: `ids` maps
    /// each parameter to its VST3 id; `handler` is the host's.
    pub fn new(
        wrapper: Weak<Inner>,
        handler: Arc<HostHandler>,
        ids: HashMap<ParamPtr, ParamID>,
    ) -> Self {
        Self {
            wrapper,
            handler,
            ids,
        }
    }

    /// `param`'s VST3 id, if it is one of the instance's parameters.
    fn id(&self, param: ParamPtr) -> Option<ParamID> {
        let id = self.ids.get(&param).copied();
        if id.is_none() {
            nice_error!("the editor edited a parameter the VST3 does not list");
        }
        id
    }
}

impl GuiContextInner for EditorContext {
    fn plugin_api(&self) -> PluginApi {
        PluginApi::Vst3
    }

    unsafe fn raw_begin_set_parameter(&self, param: ParamPtr) {
        if let Some(id) = self.id(param) {
            // SAFETY: a live handler the host gave, on the GUI thread.
            self.handler.with(|handler| unsafe {
                handler.beginEdit(id);
            });
        }
    }

    unsafe fn raw_set_parameter_normalized(&self, param: ParamPtr, normalized: f32) {
        let Some(id) = self.id(param) else {
            return;
        };
        let value = f64::from(normalized);
        if let Some(wrapper) = self.wrapper.upgrade() {
            // SAFETY: the wrapper's own call for a parameter it lists.
            unsafe { wrapper.setParamNormalized(id, value) };
        }
        // SAFETY: as for `beginEdit`.
        self.handler.with(|handler| unsafe {
            handler.performEdit(id, value);
        });
    }

    unsafe fn raw_end_set_parameter(&self, param: ParamPtr) {
        if let Some(id) = self.id(param) {
            // SAFETY: as for `beginEdit`.
            self.handler.with(|handler| unsafe {
                handler.endEdit(id);
            });
        }
    }

    /// The instance's state, as the wrapper writes it for a host.
    fn get_state(&self) -> PluginState {
        let saved = self.wrapper.upgrade().and_then(|wrapper| {
            let stream = ComWrapper::new(MemoryStream::default());
            let target = stream.to_com_ptr::<IBStream>()?;
            // SAFETY: the wrapper's own call, with a live stream.
            let written = unsafe { IComponentTrait::getState(&*wrapper, target.as_ptr()) };
            (written == kResultOk).then(|| stream.bytes())
        });
        match saved.map(|bytes| serde_json::from_slice::<PluginState>(&bytes)) {
            Some(Ok(state)) => state,
            _ => {
                nice_error!("the VST3 could not read its own state");
                PluginState {
                    version: String::new(),
                    params: Default::default(),
                    fields: Default::default(),
                }
            }
        }
    }

    /// Restores `state` as a host's `IComponent::setState` would, then
    /// tells the host that the parameters changed.
    fn set_state(&self, state: PluginState) {
        let Some(wrapper) = self.wrapper.upgrade() else {
            return;
        };
        let Ok(bytes) = serde_json::to_vec(&state) else {
            nice_error!("the editor's state could not be written");
            return;
        };
        let stream = ComWrapper::new(MemoryStream::with(bytes));
        let Some(source) = stream.to_com_ptr::<IBStream>() else {
            return;
        };
        // SAFETY: the wrapper's own call, with a live stream.
        let restored = unsafe { IComponentTrait::setState(&*wrapper, source.as_ptr()) };
        if restored != kResultOk {
            nice_error!("the VST3 refused the editor's state");
            return;
        }
        // SAFETY: as for `beginEdit`.
        self.handler.with(|handler| unsafe {
            handler.restartComponent(kParamValuesChanged);
        });
    }

    fn request_restart(&self) {
        // SAFETY: as for `beginEdit`.
        self.handler.with(|handler| unsafe {
            handler.restartComponent(kLatencyChanged);
        });
    }
}
