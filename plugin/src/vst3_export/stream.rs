//! A VST3 byte stream in memory (`IBStream`), for handing the wrapper a
//! state to read or a place to write one, as hosts do with files.

use std::cell::RefCell;
use std::ffi::c_void;

use nice_plug::wrapper::vst3::vst3::Class;
use nice_plug::wrapper::vst3::vst3::Steinberg::IBStream_::IStreamSeekMode_::{
    kIBSeekCur, kIBSeekEnd, kIBSeekSet,
};
use nice_plug::wrapper::vst3::vst3::Steinberg::{
    IBStream, IBStreamTrait, int32, int64, kInvalidArgument, kResultFalse, kResultOk, tresult,
};

/// Bytes and a position in them. Used by one thread at a time (a COM
/// object made, used and dropped within one call of Orchard's).
#[derive(Default)]
pub struct MemoryStream {
    state: RefCell<(Vec<u8>, usize)>,
}

impl Class for MemoryStream {
    type Interfaces = (IBStream,);
}

impl MemoryStream {
    /// A stream holding `bytes`, positioned at their start.
    pub fn with(bytes: Vec<u8>) -> Self {
        Self {
            state: RefCell::new((bytes, 0)),
        }
    }

    /// The bytes written so far.
    pub fn bytes(&self) -> Vec<u8> {
        self.state.borrow().0.clone()
    }
}

/// The length of the host's buffer of `n` bytes at `buffer`: refused
/// (`kInvalidArgument`) if negative, or if the buffer is null and not empty.
fn buffer_len(buffer: *const c_void, n: int32) -> Result<usize, tresult> {
    match usize::try_from(n) {
        Ok(n) if !buffer.is_null() || n == 0 => Ok(n),
        _ => Err(kInvalidArgument),
    }
}

impl IBStreamTrait for MemoryStream {
    unsafe fn read(&self, buffer: *mut c_void, n: int32, read: *mut int32) -> tresult {
        let n = match buffer_len(buffer, n) {
            Ok(n) => n,
            Err(refused) => return refused,
        };
        let mut state = self.state.borrow_mut();
        let (bytes, position) = &mut *state;
        let start = (*position).min(bytes.len());
        let taken = n.min(bytes.len() - start);
        // SAFETY: the caller's buffer holds `n` >= `taken` bytes.
        unsafe { std::ptr::copy_nonoverlapping(bytes[start..].as_ptr(), buffer.cast(), taken) };
        *position = start + taken;
        if !read.is_null() {
            // SAFETY: not null; the caller's place for the count.
            unsafe { *read = taken as int32 };
        }
        kResultOk
    }

    unsafe fn write(&self, buffer: *mut c_void, n: int32, written: *mut int32) -> tresult {
        let n = match buffer_len(buffer, n) {
            Ok(n) => n,
            Err(refused) => return refused,
        };
        let mut state = self.state.borrow_mut();
        let (bytes, position) = &mut *state;
        let end = *position + n;
        if bytes.len() < end {
            bytes.resize(end, 0);
        }
        if n > 0 {
            // SAFETY: the caller's buffer holds `n` bytes.
            let source = unsafe { std::slice::from_raw_parts(buffer.cast::<u8>(), n) };
            bytes[*position..end].copy_from_slice(source);
        }
        *position = end;
        if !written.is_null() {
            // SAFETY: not null; the caller's place for the count.
            unsafe { *written = n as int32 };
        }
        kResultOk
    }

    unsafe fn seek(&self, offset: int64, mode: int32, result: *mut int64) -> tresult {
        let mut state = self.state.borrow_mut();
        let (bytes, position) = &mut *state;
        let base = match mode as u32 {
            m if m == kIBSeekSet => 0,
            m if m == kIBSeekCur => *position as int64,
            m if m == kIBSeekEnd => bytes.len() as int64,
            _ => return kInvalidArgument,
        };
        let Ok(target) = usize::try_from(base + offset) else {
            return kResultFalse;
        };
        *position = target;
        if !result.is_null() {
            // SAFETY: not null; the caller's place for the position.
            unsafe { *result = target as int64 };
        }
        kResultOk
    }

    unsafe fn tell(&self, position: *mut int64) -> tresult {
        if position.is_null() {
            return kInvalidArgument;
        }
        // SAFETY: not null; the caller's place for the position.
        unsafe { *position = self.state.borrow().1 as int64 };
        kResultOk
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_written_reads_back_and_the_end_is_where_the_bytes_end() {
        let stream = MemoryStream::default();
        let mut text = *b"orchard";
        let mut n = 0;
        // SAFETY: valid buffers and counts.
        unsafe {
            assert_eq!(stream.write(text.as_mut_ptr().cast(), 7, &mut n), kResultOk);
            assert_eq!(n, 7);
            let mut end = 0;
            assert_eq!(stream.seek(0, kIBSeekEnd as int32, &mut end), kResultOk);
            assert_eq!(end, 7);
            assert_eq!(
                stream.seek(2, kIBSeekSet as int32, std::ptr::null_mut()),
                kResultOk
            );
            let mut back = [0u8; 16];
            assert_eq!(stream.read(back.as_mut_ptr().cast(), 16, &mut n), kResultOk);
            assert_eq!(&back[..n as usize], b"chard");
            assert_eq!(
                stream.seek(-1, kIBSeekSet as int32, std::ptr::null_mut()),
                kResultFalse
            );
            assert_eq!(
                stream.read(back.as_mut_ptr().cast(), -1, &mut n),
                kInvalidArgument
            );
        }
        assert_eq!(stream.bytes(), b"orchard");
    }
}
