//! Strings across the CLAP boundary.

use std::ffi::{CStr, CString, c_char};

/// `text` as a C string; interior NUL bytes (which no name or message of
/// ours has) are dropped rather than failing.
pub fn c_string(text: &str) -> CString {
    CString::new(text.replace('\0', "")).unwrap_or_default()
}

/// The UTF-8 text at `pointer`, or `None` for a null pointer or invalid UTF-8.
///
/// # Safety
/// `pointer` is null or points to a NUL-terminated string that outlives the
/// returned reference.
pub unsafe fn str_at<'a>(pointer: *const c_char) -> Option<&'a str> {
    if pointer.is_null() {
        return None;
    }
    // SAFETY: non-null and NUL-terminated, as the caller promises.
    unsafe { CStr::from_ptr(pointer) }.to_str().ok()
}
