//! Each Orchard instance a VST3 host creates: nice-plug's wrapper, passed
//! every call as it came, except that the host sees only the MIDI
//! controller proxies [`controllers::OFFERED`] lists, on every channel.
//!
//! The proxies the host does not see still exist inside the wrapper (their
//! ids are the wrapper's own): nothing maps a controller to them, so no
//! host sends them. The ones it sees keep the wrapper's ids and indices
//! relative to one another, so automation and MIDI mapping are unchanged;
//! they are named as [`controllers::proxy_name`] says.

use std::collections::{HashMap, HashSet};

use nice_plug::wrapper::vst3::Wrapper;
use nice_plug::wrapper::vst3::vst3::Class;
use nice_plug::wrapper::vst3::vst3::Steinberg::Vst::ChannelContext::{
    IInfoListener, IInfoListenerTrait,
};
use nice_plug::wrapper::vst3::vst3::Steinberg::Vst::{
    BusDirection, BusInfo, CString, CtrlNumber, IAttributeList, IAudioProcessor,
    IAudioProcessorTrait, IComponent, IComponentHandler, IComponentTrait, IEditController,
    IEditControllerTrait, IMidiMapping, IMidiMappingTrait, INoteExpressionController,
    INoteExpressionControllerTrait, IProcessContextRequirements, IProcessContextRequirementsTrait,
    IUnitInfo, IUnitInfoTrait, IoMode, MediaType, NoteExpressionTypeID, NoteExpressionTypeInfo,
    NoteExpressionValue, ParamID, ParamValue, ParameterInfo, ProcessData, ProcessSetup,
    ProgramListID, ProgramListInfo, RoutingInfo, SpeakerArrangement, String128, TChar, UnitID,
    UnitInfo,
};
use nice_plug::wrapper::vst3::vst3::Steinberg::{
    FIDString, FUnknown, IBStream, IPlugView, IPluginBaseTrait, TBool, TUID, int16, int32,
    kInvalidArgument, kResultFalse, kResultOk, tresult, uint32,
};

use super::controllers::{self, CHANNELS};
use crate::Orchard;

/// The wrapper every call goes on to.
type Inner = Wrapper<Orchard>;

/// One instance: nice-plug's wrapper, and which of its parameters the host
/// sees.
pub struct Component {
    inner: Inner,
    /// The wrapper's indices of the parameters the host sees, in order: the
    /// host's parameter `i` is the wrapper's `visible[i]`.
    visible: Vec<int32>,
    /// The proxies the host sees: parameter id to (channel from 0,
    /// controller).
    proxies: HashMap<ParamID, (int16, CtrlNumber)>,
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
        let inner = Inner::new();
        let (offered, hidden): (Vec<_>, Vec<_>) = proxies(&inner)
            .into_iter()
            .partition(|&(_, (_, controller))| controllers::is_offered(controller));
        let hidden: HashSet<ParamID> = hidden.into_iter().map(|(id, _)| id).collect();
        let visible = visible_parameters(&inner, &hidden);
        Self {
            inner,
            visible,
            proxies: offered.into_iter().collect(),
        }
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
    fn setState(state: *mut IBStream) -> tresult;
    fn getState(state: *mut IBStream) -> tresult;
});

pass_on!(IEditControllerTrait {
    fn setComponentState(state: *mut IBStream) -> tresult;
    fn setState(state: *mut IBStream) -> tresult;
    fn getState(state: *mut IBStream) -> tresult;
    fn getParamStringByValue(id: ParamID, value: ParamValue, string: *mut String128) -> tresult;
    fn getParamValueByString(id: ParamID, string: *mut TChar, value: *mut ParamValue) -> tresult;
    fn normalizedParamToPlain(id: ParamID, value: ParamValue) -> ParamValue;
    fn plainParamToNormalized(id: ParamID, plain: ParamValue) -> ParamValue;
    fn getParamNormalized(id: ParamID) -> ParamValue;
    fn setParamNormalized(id: ParamID, value: ParamValue) -> tresult;
    fn setComponentHandler(handler: *mut IComponentHandler) -> tresult;
    fn createView(name: FIDString) -> *mut IPlugView;
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
    fn process(data: *mut ProcessData) -> tresult;
    fn getTailSamples() -> uint32;
});

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
