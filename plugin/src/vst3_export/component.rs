//! Each Orchard instance a VST3 host creates: nice-plug's wrapper, passed
//! every call as it came, except that the host sees only the MIDI
//! controller proxies [`controllers::OFFERED`] lists, on every channel.
//!
//! The proxies the host does not see still exist inside the wrapper (their
//! ids are the wrapper's own): nothing maps a controller to them, so no
//! host sends them. The ones it sees keep the wrapper's ids and indices
//! relative to one another, so automation and MIDI mapping are unchanged;
//! they are named as [`controllers::proxy_name`] says.
//!
//! The editor is Orchard's own ([`super::view`]): `createView` answers
//! with Orchard's view of the instance's editor, which the wrapper never
//! has ([`crate::editor::handoff`]). When the host changes a parameter, sets a state
//! or sends parameter changes to `process`, the open editor is only asked to
//! redraw (an atomic flag); it reads the values themselves when it draws.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use nice_plug::wrapper::vst3::Wrapper;
use nice_plug::wrapper::vst3::vst3::Steinberg::Vst::ChannelContext::{
    IInfoListener, IInfoListenerTrait,
};
use nice_plug::wrapper::vst3::vst3::Steinberg::Vst::{
    BusDirection, BusInfo, CString, CtrlNumber, IAttributeList, IAudioProcessor,
    IAudioProcessorTrait, IComponent, IComponentHandler, IComponentTrait, IEditController,
    IEditControllerTrait, IMidiMapping, IMidiMappingTrait, INoteExpressionController,
    INoteExpressionControllerTrait, IParameterChangesTrait, IProcessContextRequirements,
    IProcessContextRequirementsTrait, IUnitInfo, IUnitInfoTrait, IoMode, MediaType,
    NoteExpressionTypeID, NoteExpressionTypeInfo, NoteExpressionValue, ParamID, ParamValue,
    ParameterInfo, ProcessData, ProcessSetup, ProgramListID, ProgramListInfo, RoutingInfo,
    SpeakerArrangement, String128, TChar, UnitID, UnitInfo,
};
use nice_plug::wrapper::vst3::vst3::Steinberg::{
    FIDString, FUnknown, IBStream, IPlugView, IPluginBaseTrait, TBool, TUID, int16, int32,
    kInvalidArgument, kResultFalse, kResultOk, tresult, uint32,
};
use nice_plug::wrapper::vst3::vst3::{Class, ComRef};

use super::controllers::{self, CHANNELS};
use crate::plugin::Orchard;

/// The wrapper every call goes on to.
type Inner = Wrapper<Orchard>;

/// One instance: nice-plug's wrapper, which of its parameters the host
/// sees, and the editor.
pub struct Component {
    inner: Arc<Inner>,
    /// The wrapper's indices of the parameters the host sees, in order: the
    /// host's parameter `i` is the wrapper's `visible[i]`.
    visible: Vec<int32>,
    /// The proxies the host sees: parameter id to (channel from 0,
    /// controller).
    proxies: HashMap<ParamID, (int16, CtrlNumber)>,
    /// The editor, if the plugin handed it over.
    #[cfg(feature = "editor")]
    editor: Option<editor_side::EditorSide>,
}

impl Class for Component {
    type Interfaces = (
        IComponent,
        IEditController,
        IAudioProcessor,
        IMidiMapping,
        INoteExpressionController,
        IProcessContextRequirements,
        IUnitInfo,
        IInfoListener,
    );
}

impl Component {
    /// A new instance.
    pub fn new() -> Self {
        #[cfg(feature = "editor")]
        let (inner, parts) = crate::editor::handoff::claim(Inner::new);
        #[cfg(not(feature = "editor"))]
        let inner = Inner::new();
        let (offered, hidden): (Vec<_>, Vec<_>) = proxies(&inner)
            .into_iter()
            .partition(|&(_, (_, controller))| controllers::is_offered(controller));
        let hidden: HashSet<ParamID> = hidden.into_iter().map(|(id, _)| id).collect();
        let visible = visible_parameters(&inner, &hidden);
        let inner = Arc::new(inner);
        Self {
            #[cfg(feature = "editor")]
            editor: parts.and_then(|parts| editor_side::EditorSide::new(&inner, parts)),
            inner,
            visible,
            proxies: offered.into_iter().collect(),
        }
    }

    /// Asks the open editor, if any, to redraw. Wait-free: any thread.
    fn repaint(&self) {
        #[cfg(feature = "editor")]
        if let Some(editor) = &self.editor {
            editor.repaint();
        }
    }

    /// The editor's side of the instance (for the tests).
    #[cfg(all(test, feature = "editor"))]
    pub fn editor_side(&self) -> Option<&editor_side::EditorSide> {
        self.editor.as_ref()
    }

    /// What the wrapper itself answers to `createView` (for the tests).
    #[cfg(test)]
    pub unsafe fn wrapper_view(&self, name: FIDString) -> *mut IPlugView {
        // SAFETY: the caller's name, as the host would pass it.
        unsafe { self.inner.createView(name) }
    }
}

#[cfg(feature = "editor")]
pub mod editor_side {
    //! What an instance keeps for its editor.

    use std::collections::HashMap;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    use nice_plug::context::gui::GuiContext;
    use nice_plug::params::Params;
    use nice_plug::prelude::nice_error;
    use nice_plug::wrapper::vst3::vst3::Steinberg::Vst::{
        IComponentHandler, IEditControllerTrait, ParameterInfo,
    };
    use nice_plug::wrapper::vst3::vst3::Steinberg::{IPlugView, kResultOk};
    use nice_plug::wrapper::vst3::vst3::{ComPtr, ComRef};
    use nice_plug_egui::RepaintNotifier;

    use super::Inner;
    use crate::editor::handoff::EditorParts;
    use crate::editor::window::{self, OrchardEditor};
    use crate::params::OrchardParams;
    use crate::vst3_export::gui_context::{EditorContext, HostHandler};
    use crate::vst3_export::view::View;

    /// The editor, its context, and the instance's shared flags.
    pub struct EditorSide {
        editor: Arc<OrchardEditor>,
        context: GuiContext,
        handler: Arc<HostHandler>,
        repaint: RepaintNotifier,
        open: Arc<AtomicBool>,
        #[cfg(test)]
        params: Arc<OrchardParams>,
    }

    impl EditorSide {
        /// The editor side of the instance whose wrapper is `inner`, from
        /// the parts its plugin handed over; `None` (logged) if the
        /// editor cannot be made.
        pub fn new(inner: &Arc<Inner>, parts: EditorParts) -> Option<Self> {
            let ids = parameter_ids(inner, &parts.params);
            let handler = Arc::new(HostHandler::default());
            let repaint = RepaintNotifier::new();
            let editor =
                window::create_with(Arc::clone(&parts.params), parts.link, repaint.clone());
            let Some(editor) = editor else {
                nice_error!("Orchard's editor could not be made");
                return None;
            };
            let context = EditorContext::new(Arc::downgrade(inner), Arc::clone(&handler), ids);
            Some(Self {
                editor: Arc::new(editor),
                context: GuiContext::new(Arc::new(context)),
                handler,
                repaint,
                open: Arc::new(AtomicBool::new(false)),
                #[cfg(test)]
                params: parts.params,
            })
        }

        /// Asks the editor to redraw.
        pub fn repaint(&self) {
            self.repaint.request_repaint();
        }

        /// Keeps the host's component handler for the editor's edits.
        pub fn set_handler(&self, handler: *mut IComponentHandler) {
            // SAFETY: the host's handler or null.
            self.handler
                .set(unsafe { ComRef::from_raw(handler) }.map(|handler| handler.to_com_ptr()));
        }

        /// A new view for the host.
        pub fn view(&self) -> Option<ComPtr<IPlugView>> {
            View::create(
                Arc::clone(&self.editor),
                self.context.clone(),
                Arc::clone(&self.open),
            )
        }

        /// The context the editor edits through (for the tests).
        #[cfg(test)]
        pub fn context(&self) -> &GuiContext {
            &self.context
        }

        /// The parameters the editor shows (for the tests).
        #[cfg(test)]
        pub fn params(&self) -> &Arc<OrchardParams> {
            &self.params
        }
    }

    /// Each of `params`' parameters' VST3 id, as the wrapper lists them:
    /// its own parameters first, in the order `param_map` gives, each
    /// checked by name. A parameter that does not match is left out (and
    /// logged): the editor's edits of it would not reach the host.
    fn parameter_ids(
        inner: &Inner,
        params: &OrchardParams,
    ) -> HashMap<nice_plug::params::internals::ParamPtr, u32> {
        let mut ids = HashMap::new();
        for (index, (name, param, _)) in params.param_map().into_iter().enumerate() {
            let mut info: ParameterInfo = unsafe { std::mem::zeroed() };
            // SAFETY: `info` is a valid place for the answer.
            let found = unsafe { inner.getParameterInfo(index as i32, &mut info) };
            let end = info
                .title
                .iter()
                .position(|&unit| unit == 0)
                .unwrap_or(info.title.len());

            // SAFETY: the parameter belongs to the live plugin.
            let matches = found == kResultOk
                && String::from_utf16_lossy(&info.title[..end]) == unsafe { param.name() };
            if matches {
                ids.insert(param, info.id);
            } else {
                nice_error!("the VST3 does not list parameter {name} where expected");
            }
        }
        ids
    }
}

/// Every proxy the wrapper maps a controller to, as asked of its own MIDI
/// map: (parameter id, (channel from 0, controller)).
fn proxies(inner: &Inner) -> Vec<(ParamID, (int16, CtrlNumber))> {
    let mut found = Vec::new();
    for channel in 0..CHANNELS {
        for controller in controllers::ALL {
            let mut id: ParamID = 0;
            // SAFETY: `id` is a valid place for the answer.
            let mapped =
                unsafe { inner.getMidiControllerAssignment(0, channel, controller, &mut id) };
            if mapped == kResultOk {
                found.push((id, (channel, controller)));
            }
        }
    }
    found
}

/// The wrapper's indices of every parameter but the `hidden` ones.
fn visible_parameters(inner: &Inner, hidden: &HashSet<ParamID>) -> Vec<int32> {
    // SAFETY: the wrapper is whole; `info` is a valid place for each answer.
    let count = unsafe { inner.getParameterCount() };
    (0..count)
        .filter(|&index| {
            let mut info: ParameterInfo = unsafe { std::mem::zeroed() };
            let found = unsafe { inner.getParameterInfo(index, &mut info) };
            found == kResultOk && !hidden.contains(&info.id)
        })
        .collect()
}

/// Writes `text` into a VST3 string, cut to fit and null-terminated.
fn write_title(title: &mut String128, text: &str) {
    let room = title.len() - 1;
    let mut end = 0;
    for (slot, unit) in title.iter_mut().zip(text.encode_utf16().take(room)) {
        *slot = unit as TChar;
        end += 1;
    }
    title[end] = 0;
}

/// Implements `$trait` by passing each listed method on to the wrapper,
/// with its arguments as they came; `$own` are the methods that do more.
macro_rules! pass_on {
    ($trait:path { $( fn $name:ident ( $( $arg:ident : $ty:ty ),* ) -> $ret:ty ; )* } $($own:tt)*) => {
        impl $trait for Component {
            $(
                unsafe fn $name(&self, $( $arg: $ty ),*) -> $ret {
                    // SAFETY: the host's call, unchanged, to the object it
                    // was meant for.
                    unsafe { <Inner as $trait>::$name(&self.inner, $( $arg ),*) }
                }
            )*
            $($own)*
        }
    };
}

pass_on!(IPluginBaseTrait {
    fn initialize(context: *mut FUnknown) -> tresult;
    fn terminate() -> tresult;
});

pass_on!(IComponentTrait {
    fn getControllerClassId(class_id: *mut TUID) -> tresult;
    fn setIoMode(mode: IoMode) -> tresult;
    fn getBusCount(media: MediaType, dir: BusDirection) -> int32;
    fn getBusInfo(media: MediaType, dir: BusDirection, index: int32, bus: *mut BusInfo) -> tresult;
    fn getRoutingInfo(in_info: *mut RoutingInfo, out_info: *mut RoutingInfo) -> tresult;
    fn activateBus(media: MediaType, dir: BusDirection, index: int32, state: TBool) -> tresult;
    fn setActive(state: TBool) -> tresult;
    fn getState(state: *mut IBStream) -> tresult;
}
    unsafe fn setState(&self, state: *mut IBStream) -> tresult {
        // SAFETY: the host's call, unchanged.
        let restored = unsafe { IComponentTrait::setState(&*self.inner, state) };
        self.repaint();
        restored
    }
);

pass_on!(IEditControllerTrait {
    fn setComponentState(state: *mut IBStream) -> tresult;
    fn setState(state: *mut IBStream) -> tresult;
    fn getState(state: *mut IBStream) -> tresult;
    fn getParamStringByValue(id: ParamID, value: ParamValue, string: *mut String128) -> tresult;
    fn getParamValueByString(id: ParamID, string: *mut TChar, value: *mut ParamValue) -> tresult;
    fn normalizedParamToPlain(id: ParamID, value: ParamValue) -> ParamValue;
    fn plainParamToNormalized(id: ParamID, plain: ParamValue) -> ParamValue;
    fn getParamNormalized(id: ParamID) -> ParamValue;
}
    unsafe fn setParamNormalized(&self, id: ParamID, value: ParamValue) -> tresult {
        // SAFETY: the host's call, unchanged.
        let set = unsafe { self.inner.setParamNormalized(id, value) };
        self.repaint();
        set
    }

    unsafe fn setComponentHandler(&self, handler: *mut IComponentHandler) -> tresult {
        #[cfg(feature = "editor")]
        if let Some(editor) = &self.editor {
            editor.set_handler(handler);
        }
        // SAFETY: the host's call, unchanged.
        unsafe { self.inner.setComponentHandler(handler) }
    }

    /// Orchard's own view of the editor (the wrapper has none).
    unsafe fn createView(&self, name: FIDString) -> *mut IPlugView {
        #[cfg(feature = "editor")]
        // SAFETY: the host's name, null-terminated.
        if !name.is_null() && unsafe { std::ffi::CStr::from_ptr(name) } == c"editor" {
            return self
                .editor
                .as_ref()
                .and_then(|editor| editor.view())
                .map_or(std::ptr::null_mut(), |view| view.into_raw());
        }
        let _ = name;
        std::ptr::null_mut()
    }
    unsafe fn getParameterCount(&self) -> int32 {
        self.visible.len() as int32
    }

    unsafe fn getParameterInfo(&self, index: int32, info: *mut ParameterInfo) -> tresult {
        let Some(&inner_index) = usize::try_from(index).ok().and_then(|i| self.visible.get(i)) else {
            return kInvalidArgument;
        };
        // SAFETY: the host's `info`, for a parameter the wrapper has.
        let found = unsafe { self.inner.getParameterInfo(inner_index, info) };
        if found == kResultOk {
            // SAFETY: the wrapper has just filled it.
            let info = unsafe { &mut *info };
            if let Some(&(channel, controller)) = self.proxies.get(&info.id) {
                let name = controllers::proxy_name(channel, controller);
                write_title(&mut info.title, &name);
                write_title(&mut info.shortTitle, &name);
            }
        }
        found
    }
);

impl IMidiMappingTrait for Component {
    unsafe fn getMidiControllerAssignment(
        &self,
        bus_index: int32,
        channel: int16,
        controller: CtrlNumber,
        id: *mut ParamID,
    ) -> tresult {
        if !controllers::is_offered(controller) {
            return kResultFalse;
        }
        // SAFETY: the host's call, unchanged.
        unsafe {
            self.inner
                .getMidiControllerAssignment(bus_index, channel, controller, id)
        }
    }
}

pass_on!(IAudioProcessorTrait {
    fn setBusArrangements(inputs: *mut SpeakerArrangement, num_ins: int32, outputs: *mut SpeakerArrangement, num_outs: int32) -> tresult;
    fn getBusArrangement(dir: BusDirection, index: int32, arrangement: *mut SpeakerArrangement) -> tresult;
    fn canProcessSampleSize(size: int32) -> tresult;
    fn getLatencySamples() -> uint32;
    fn setupProcessing(setup: *mut ProcessSetup) -> tresult;
    fn setProcessing(state: TBool) -> tresult;
    fn getTailSamples() -> uint32;
}
    unsafe fn process(&self, data: *mut ProcessData) -> tresult {
        // SAFETY: the host's call, unchanged.
        let processed = unsafe { self.inner.process(data) };
        // SAFETY: the host's block (checked for null) and its list of
        // parameter changes, valid for this call.
        let changed = !data.is_null()
            && unsafe { ComRef::from_raw((*data).inputParameterChanges) }
                .is_some_and(|changes| unsafe { changes.getParameterCount() } > 0);
        if changed {
            self.repaint();
        }
        processed
    }
);

pass_on!(INoteExpressionControllerTrait {
    fn getNoteExpressionCount(bus_index: int32, channel: int16) -> int32;
    fn getNoteExpressionInfo(bus_index: int32, channel: int16, index: int32, info: *mut NoteExpressionTypeInfo) -> tresult;
    fn getNoteExpressionStringByValue(bus_index: int32, channel: int16, id: NoteExpressionTypeID, value: NoteExpressionValue, string: *mut String128) -> tresult;
    fn getNoteExpressionValueByString(bus_index: int32, channel: int16, id: NoteExpressionTypeID, string: *const TChar, value: *mut NoteExpressionValue) -> tresult;
});

pass_on!(IProcessContextRequirementsTrait {
    fn getProcessContextRequirements() -> uint32;
});

pass_on!(IUnitInfoTrait {
    fn getUnitCount() -> int32;
    fn getUnitInfo(index: int32, info: *mut UnitInfo) -> tresult;
    fn getProgramListCount() -> int32;
    fn getProgramListInfo(index: int32, info: *mut ProgramListInfo) -> tresult;
    fn getProgramName(list: ProgramListID, program: int32, name: *mut String128) -> tresult;
    fn getProgramInfo(list: ProgramListID, program: int32, attribute: CString, value: *mut String128) -> tresult;
    fn hasProgramPitchNames(list: ProgramListID, program: int32) -> tresult;
    fn getProgramPitchName(list: ProgramListID, program: int32, pitch: int16, name: *mut String128) -> tresult;
    fn getSelectedUnit() -> UnitID;
    fn selectUnit(unit: UnitID) -> tresult;
    fn getUnitByBus(media: MediaType, dir: BusDirection, bus_index: int32, channel: int32, unit: *mut UnitID) -> tresult;
    fn setUnitProgramData(list_or_unit: int32, program: int32, data: *mut IBStream) -> tresult;
});

pass_on!(IInfoListenerTrait {
    fn setChannelContextInfos(list: *mut IAttributeList) -> tresult;
});
