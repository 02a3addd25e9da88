//! Orchard's own VST3 editor view (`IPlugView`): the egui editor in the
//! host's window, driven by Orchard and not by nice-plug's wrapper.
//!
//! The host calls every method here on its GUI thread. The editor's window
//! draws on a thread of its own and reads the parameters' current values
//! (atomics) each time it draws; nothing is queued for it when a parameter
//! changes, it is only asked to redraw (one atomic flag). Requests the
//! window makes of the host (a resize) run on the host's GUI thread through
//! `IRunLoop` ([`super::wakeup`]), or wait if the host offers none.

use std::cell::{Cell, RefCell};
use std::error::Error;
use std::ffi::{CStr, c_void};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use nice_plug::context::gui::GuiContext;
use nice_plug::editor::dpi::{NativeSize, Size};
use nice_plug::editor::{
    Editor, EditorHandle, HostCallbacks, HostMainThreadCaller, HostMethods, ParentWindowHandle,
};
use nice_plug::prelude::nice_error;
use nice_plug::wrapper::vst3::vst3::Steinberg::{
    FIDString, IPlugFrame, IPlugFrameTrait, IPlugView, IPlugViewContentScaleSupport,
    IPlugViewContentScaleSupport_::ScaleFactor, IPlugViewContentScaleSupportTrait, IPlugViewTrait,
    TBool, ViewRect, char16, int16, kInvalidArgument, kNotImplemented, kResultFalse, kResultOk,
    tresult,
};
use nice_plug::wrapper::vst3::vst3::{Class, ComPtr, ComRef, ComWrapper};

use crate::editor::window::{OpenWindow, OrchardEditor};

/// The window system this build embeds in.
#[cfg(all(target_family = "unix", not(target_os = "macos")))]
const PLATFORM: &CStr = c"X11EmbedWindowID";
#[cfg(target_os = "macos")]
const PLATFORM: &CStr = c"NSView";
#[cfg(target_os = "windows")]
const PLATFORM: &CStr = c"HWND";

/// The host's frame and this view's own pointer, shared with the window's
/// resize requests.
#[derive(Default)]
struct Frame {
    frame: RefCell<Option<ComPtr<IPlugFrame>>>,
    /// This view as the host knows it (not a reference: the view owns the
    /// frame, not the other way round).
    view: Cell<*mut IPlugView>,
}

/// One editor view.
pub struct View {
    editor: Arc<OrchardEditor>,
    context: GuiContext,
    /// Whether a view of this instance has its window open (shared by
    /// every view of the instance: one window at a time).
    open: Arc<AtomicBool>,
    frame: Rc<Frame>,
    window: Rc<RefCell<Option<OpenWindow>>>,
    /// The host's suggested scale, if it gave one.
    scale: Cell<Option<f64>>,
    #[cfg(all(target_family = "unix", not(target_os = "macos")))]
    wakeup: RefCell<Option<Registered>>,
}

impl Class for View {
    type Interfaces = (IPlugView, IPlugViewContentScaleSupport);
}

impl View {
    /// A new view, as the host receives it (one reference), of `editor`
    /// with `context`; `open` is the instance's "a window is open" flag.
    pub fn create(
        editor: Arc<OrchardEditor>,
        context: GuiContext,
        open: Arc<AtomicBool>,
    ) -> Option<ComPtr<IPlugView>> {
        let view = ComWrapper::new(Self {
            editor,
            context,
            open,
            frame: Rc::default(),
            window: Rc::default(),
            scale: Cell::new(None),
            #[cfg(all(target_family = "unix", not(target_os = "macos")))]
            wakeup: RefCell::new(None),
        });
        let pointer = view.to_com_ptr::<IPlugView>()?;
        view.frame.view.set(pointer.as_ptr());
        Some(pointer)
    }

    /// The host's window handle `parent` of kind `kind`, as the editor
    /// takes it.
    fn parent(parent: *mut c_void, kind: &CStr) -> Option<ParentWindowHandle> {
        if kind != PLATFORM {
            return None;
        }
        #[cfg(all(target_family = "unix", not(target_os = "macos")))]
        return Some(ParentWindowHandle::XlibWindow(parent as std::ffi::c_ulong));
        #[cfg(target_os = "macos")]
        return std::ptr::NonNull::new(parent).map(ParentWindowHandle::AppKitNsView);
        #[cfg(target_os = "windows")]
        return std::num::NonZeroIsize::new(parent as isize).map(ParentWindowHandle::Win32Hwnd);
    }

    /// What the window may ask of the host.
    fn host_methods(&self) -> HostMethods {
        HostMethods {
            callbacks: Box::new(Resizer(Rc::clone(&self.frame))),
            main_thread_caller: self.main_thread_caller(),
        }
    }

    #[cfg(all(target_family = "unix", not(target_os = "macos")))]
    fn main_thread_caller(&self) -> Box<dyn HostMainThreadCaller> {
        match &*self.wakeup.borrow() {
            Some(registered) => Box::new(super::wakeup::Caller(registered.wakeup.bell())),
            None => Box::new(Unanswered),
        }
    }

    #[cfg(not(all(target_family = "unix", not(target_os = "macos"))))]
    fn main_thread_caller(&self) -> Box<dyn HostMainThreadCaller> {
        Box::new(Unanswered)
    }

    /// Calls `call` with the open window, or answers `kResultFalse`.
    fn with_window(&self, call: impl FnOnce(&OpenWindow) -> tresult) -> tresult {
        match &*self.window.borrow() {
            Some(open) => call(open),
            None => kResultFalse,
        }
    }

    /// Opens the editor's window in `parent`.
    fn open(&self, parent: ParentWindowHandle) -> Result<OpenWindow, Box<dyn Error>> {
        let spawned = self.editor.spawn(
            Some(parent),
            false,
            self.scale.get(),
            self.context.clone(),
            Some(self.host_methods()),
        )?;
        spawned.handle.show(&spawned.window)?;
        Ok(spawned)
    }
}

/// A window request nobody will run: on platforms whose windows share the
/// host's GUI thread, or with a host that offers no run loop.
struct Unanswered;

impl HostMainThreadCaller for Unanswered {
    fn call_main_thread(&mut self) {}
}

/// The window's requests to the host, run on the host's GUI thread.
struct Resizer(Rc<Frame>);

impl HostCallbacks for Resizer {
    fn request_resize(&mut self, new_size: Size, scale_factor: f64) -> Result<(), Box<dyn Error>> {
        let size: NativeSize<u32> = NativeSize::from_size(new_size, scale_factor);
        let mut rect = ViewRect {
            left: 0,
            top: 0,
            right: size.width as i32,
            bottom: size.height as i32,
        };
        let frame = self.0.frame.borrow().clone();
        let Some(frame) = frame else {
            return Err("the host gave the editor no frame".into());
        };
        // SAFETY: the host's frame, and this view (alive: it runs this).
        match unsafe { frame.resizeView(self.0.view.get(), &mut rect) } {
            result if result == kResultOk => Ok(()),
            result => Err(format!("the host refused to resize the editor ({result})").into()),
        }
    }

    fn destroyed(&mut self) {}
}

/// The wakeup the host's run loop holds, and the run loop.
#[cfg(all(target_family = "unix", not(target_os = "macos")))]
struct Registered {
    wakeup: ComWrapper<super::wakeup::Wakeup>,
    handler: ComPtr<nice_plug::wrapper::vst3::vst3::Steinberg::Linux::IEventHandler>,
    run_loop: ComPtr<nice_plug::wrapper::vst3::vst3::Steinberg::Linux::IRunLoop>,
}

#[cfg(all(target_family = "unix", not(target_os = "macos")))]
impl Registered {
    /// Registers a new wakeup for `window` with the frame's run loop, if it
    /// offers one.
    fn with(frame: &ComPtr<IPlugFrame>, window: &Rc<RefCell<Option<OpenWindow>>>) -> Option<Self> {
        use nice_plug::wrapper::vst3::vst3::Steinberg::Linux::{IEventHandler, IRunLoopTrait};
        let run_loop = frame.cast()?;
        let wakeup = ComWrapper::new(super::wakeup::Wakeup::new(Rc::clone(window))?);
        let handler = wakeup.to_com_ptr::<IEventHandler>()?;
        // SAFETY: the host's run loop, our live handler and its socket.
        let registered =
            unsafe { run_loop.registerEventHandler(handler.as_ptr(), wakeup.descriptor()) };
        if registered != kResultOk {
            nice_error!("the host's run loop refused the editor ({registered})");
            return None;
        }
        Some(Self {
            wakeup,
            handler,
            run_loop,
        })
    }
}

#[cfg(all(target_family = "unix", not(target_os = "macos")))]
impl Drop for Registered {
    fn drop(&mut self) {
        use nice_plug::wrapper::vst3::vst3::Steinberg::Linux::IRunLoopTrait;
        // SAFETY: the run loop and the handler registered with it.
        unsafe { self.run_loop.unregisterEventHandler(self.handler.as_ptr()) };
    }
}

impl IPlugViewTrait for View {
    unsafe fn isPlatformTypeSupported(&self, kind: FIDString) -> tresult {
        if kind.is_null() {
            return kInvalidArgument;
        }
        // SAFETY: the host's null-terminated string.
        if unsafe { CStr::from_ptr(kind) } == PLATFORM {
            kResultOk
        } else {
            kResultFalse
        }
    }

    unsafe fn attached(&self, parent: *mut c_void, kind: FIDString) -> tresult {
        if parent.is_null() || kind.is_null() {
            return kInvalidArgument;
        }
        // SAFETY: the host's null-terminated string.
        let Some(parent) = Self::parent(parent, unsafe { CStr::from_ptr(kind) }) else {
            return kInvalidArgument;
        };
        if self.open.swap(true, Ordering::AcqRel) {
            nice_error!("the host opened a second editor of one instance");
            return kResultFalse;
        }
        match self.open(parent) {
            Ok(open) => {
                *self.window.borrow_mut() = Some(open);
                kResultOk
            }
            Err(error) => {
                nice_error!("the editor could not open: {error}");
                self.open.store(false, Ordering::Release);
                kResultFalse
            }
        }
    }

    unsafe fn removed(&self) -> tresult {
        // Taken out first: closing the window may call back into the view.
        let closing = self.window.borrow_mut().take();
        match closing {
            Some(open) => {
                drop(open);
                self.open.store(false, Ordering::Release);
                kResultOk
            }
            None => kResultFalse,
        }
    }

    unsafe fn onWheel(&self, _distance: f32) -> tresult {
        // The window takes the mouse wheel from the window system.
        kResultFalse
    }

    unsafe fn onKeyDown(&self, _key: char16, _code: int16, _modifiers: int16) -> tresult {
        // The window takes keys from the window system; the host keeps
        // the ones it offers here.
        kResultFalse
    }

    unsafe fn onKeyUp(&self, _key: char16, _code: int16, _modifiers: int16) -> tresult {
        kResultFalse
    }

    unsafe fn getSize(&self, size: *mut ViewRect) -> tresult {
        if size.is_null() {
            return kInvalidArgument;
        }
        let current = self.editor.size();
        // SAFETY: not null; the host's rectangle.
        unsafe {
            *size = ViewRect {
                left: 0,
                top: 0,
                right: current.width as i32,
                bottom: current.height as i32,
            };
        }
        kResultOk
    }

    unsafe fn onSize(&self, new_size: *mut ViewRect) -> tresult {
        if new_size.is_null() {
            return kInvalidArgument;
        }
        // SAFETY: not null; the host's rectangle.
        let rect = unsafe { *new_size };
        let (Ok(width), Ok(height)) = (
            u32::try_from(rect.right - rect.left),
            u32::try_from(rect.bottom - rect.top),
        ) else {
            return kInvalidArgument;
        };
        if width == 0 || height == 0 {
            return kInvalidArgument;
        }
        self.with_window(|open| {
            match open
                .handle
                .set_size(NativeSize { width, height }, &open.window)
            {
                Ok(()) => kResultOk,
                Err(error) => {
                    nice_error!("the editor could not take the host's size: {error}");
                    kResultFalse
                }
            }
        })
    }

    unsafe fn onFocus(&self, _state: TBool) -> tresult {
        kNotImplemented
    }

    unsafe fn setFrame(&self, frame: *mut IPlugFrame) -> tresult {
        // SAFETY: the host's frame or null.
        let frame = unsafe { ComRef::from_raw(frame) }.map(|frame| frame.to_com_ptr());
        #[cfg(all(target_family = "unix", not(target_os = "macos")))]
        {
            // The old registration goes first (its drop unregisters).
            self.wakeup.borrow_mut().take();
            *self.wakeup.borrow_mut() = frame
                .as_ref()
                .and_then(|frame| Registered::with(frame, &self.window));
        }
        *self.frame.frame.borrow_mut() = frame;
        kResultOk
    }

    unsafe fn canResize(&self) -> tresult {
        if self.editor.resize_hint().can_resize {
            kResultOk
        } else {
            kResultFalse
        }
    }

    unsafe fn checkSizeConstraint(&self, rect: *mut ViewRect) -> tresult {
        if rect.is_null() {
            return kInvalidArgument;
        }
        // SAFETY: not null; the host's rectangle.
        let asked = unsafe { &mut *rect };
        let (Ok(width), Ok(height)) = (
            u32::try_from(asked.right - asked.left),
            u32::try_from(asked.bottom - asked.top),
        ) else {
            return kInvalidArgument;
        };
        self.with_window(|open| {
            match open
                .handle
                .adjust_size(NativeSize { width, height }, &open.window)
            {
                Some(fits) => {
                    asked.right = asked.left + fits.width as i32;
                    asked.bottom = asked.top + fits.height as i32;
                    kResultOk
                }
                None => kResultFalse,
            }
        })
    }
}

impl IPlugViewContentScaleSupportTrait for View {
    unsafe fn setContentScaleFactor(&self, factor: ScaleFactor) -> tresult {
        if !factor.is_finite() || factor <= 0.0 {
            return kInvalidArgument;
        }
        let factor = f64::from(factor);
        self.scale.set(Some(factor));
        if let Some(open) = &*self.window.borrow()
            && let Err(error) = open.handle.set_fallback_scale_factor(factor, &open.window)
        {
            nice_error!("the editor could not take the host's scale: {error}");
            return kResultFalse;
        }
        kResultOk
    }
}
