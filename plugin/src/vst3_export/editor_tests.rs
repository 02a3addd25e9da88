//! The VST3 instance's editor, without a window: the wrapper has none,
//! Orchard's view is offered, the editor reads the values the host sets,
//! and the editor's edits reach the host as gestures under the wrapper's
//! parameter ids.

use std::sync::Mutex;

use nice_plug::params::{Param, Params};
use nice_plug::wrapper::vst3::vst3::Steinberg::Vst::{
    IComponentHandler, IComponentHandlerTrait, IEditControllerTrait, ParamID, ParamValue,
    ParameterInfo,
};
use nice_plug::wrapper::vst3::vst3::Steinberg::{IPlugViewTrait, int32, kResultOk, tresult};
use nice_plug::wrapper::vst3::vst3::{Class, ComPtr, ComWrapper};

use super::component::Component;

/// What the host's component handler was told, in order.
#[derive(Debug, PartialEq)]
enum Call {
    Begin(ParamID),
    Perform(ParamID, ParamValue),
    End(ParamID),
}

#[derive(Default)]
struct Handler(Mutex<Vec<Call>>);

impl Class for Handler {
    type Interfaces = (IComponentHandler,);
}

impl IComponentHandlerTrait for Handler {
    unsafe fn beginEdit(&self, id: ParamID) -> tresult {
        self.0.lock().unwrap().push(Call::Begin(id));
        kResultOk
    }
    unsafe fn performEdit(&self, id: ParamID, value: ParamValue) -> tresult {
        self.0.lock().unwrap().push(Call::Perform(id, value));
        kResultOk
    }
    unsafe fn endEdit(&self, id: ParamID) -> tresult {
        self.0.lock().unwrap().push(Call::End(id));
        kResultOk
    }
    unsafe fn restartComponent(&self, _flags: int32) -> tresult {
        kResultOk
    }
}

/// The wrapper's id and step count of its parameter at `index`.
fn listed(component: &Component, index: usize) -> (ParamID, i32) {
    let mut info: ParameterInfo = unsafe { std::mem::zeroed() };
    // SAFETY: a valid place for the answer.
    assert_eq!(
        unsafe { component.getParameterInfo(index as i32, &mut info) },
        kResultOk
    );
    (info.id, info.stepCount)
}

#[test]
fn the_view_is_orchards_and_the_wrapper_has_none() {
    let component = Component::new();
    // SAFETY: VST3 calls with valid names.
    unsafe {
        assert!(component.wrapper_view(c"editor".as_ptr()).is_null());
        let view = ComPtr::from_raw(component.createView(c"editor".as_ptr())).expect("a view");
        assert_eq!(
            view.isPlatformTypeSupported(c"X11EmbedWindowID".as_ptr()),
            kResultOk
        );
        assert!(component.createView(c"other".as_ptr()).is_null());
    }
}

#[test]
fn the_editor_reads_every_value_the_host_sets() {
    let component = Component::new();
    let side = component.editor_side().expect("the editor");
    for (index, (name, param, _)) in side.params().param_map().into_iter().enumerate() {
        let (id, steps) = listed(&component, index);
        // A stepped parameter lands on its nearest step (a half step away at
        // most).
        let tolerance = if steps > 0 {
            0.5 / f64::from(steps)
        } else {
            0.0
        } + 1e-6;
        for value in [0.0, 0.3, 0.8, 1.0] {
            // SAFETY: the host's call for a listed parameter; the parameter
            // belongs to the live plugin.
            let shown = unsafe {
                assert_eq!(component.setParamNormalized(id, value), kResultOk);
                param.modulated_normalized_value()
            };
            assert!(
                (f64::from(shown) - value).abs() <= tolerance,
                "{name}: the host set {value}, the editor reads {shown}"
            );
        }
    }
}

#[test]
fn the_editors_edits_reach_the_host_as_one_gesture() {
    let component = Component::new();
    let side = component.editor_side().expect("the editor");
    let handler = ComWrapper::new(Handler::default());
    let pointer = handler.to_com_ptr::<IComponentHandler>().unwrap();
    // SAFETY: a live handler.
    unsafe { component.setComponentHandler(pointer.as_ptr()) };
    let params = side.params();
    let index = params
        .param_map()
        .iter()
        .position(|(_, param, _)| *param == params.host.hardness.as_ptr())
        .unwrap();
    let (id, _) = listed(&component, index);

    let setter = side.context().param_setter();
    setter.begin_set_parameter(&params.host.hardness);
    setter.set_parameter_normalized(&params.host.hardness, 0.25);
    setter.set_parameter_normalized(&params.host.hardness, 0.75);
    setter.end_set_parameter(&params.host.hardness);

    assert_eq!(
        *handler.0.lock().unwrap(),
        [
            Call::Begin(id),
            Call::Perform(id, 0.25),
            Call::Perform(id, 0.75),
            Call::End(id)
        ]
    );
    // Not processing: the wrapper took the value at once, and the editor
    // reads it.
    // SAFETY: the host's call for a listed parameter.
    assert!((unsafe { component.getParamNormalized(id) } - 0.75).abs() < 1e-6);
    assert!((params.host.hardness.modulated_normalized_value() - 0.75).abs() < 1e-6);
}
