//! Denormal numbers flushed to zero around the DSP.
//!
//! A decaying string or filter state sinks through the subnormal range, where
//! x86 arithmetic is many times slower. Around each block the processor's
//! flush-to-zero and denormals-are-zero modes are switched on, and the caller's
//! mode is restored afterwards.

/// While alive, subnormal results and inputs are treated as zero on this thread
/// (x86-64: MXCSR's FTZ and DAZ bits; elsewhere it does nothing).
#[derive(Debug)]
pub struct FlushDenormals {
    #[cfg(target_arch = "x86_64")]
    saved: u32,
}

/// MXCSR: flush-to-zero (bit 15) and denormals-are-zero (bit 6).
#[cfg(target_arch = "x86_64")]
const FTZ_DAZ: u32 = (1 << 15) | (1 << 6);

impl FlushDenormals {
    /// Switches flushing on for this thread until the guard is dropped.
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            let saved = read_mxcsr();
            write_mxcsr(saved | FTZ_DAZ);
            Self { saved }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            Self {}
        }
    }
}

impl Drop for FlushDenormals {
    fn drop(&mut self) {
        #[cfg(target_arch = "x86_64")]
        write_mxcsr(self.saved);
    }
}

#[cfg(target_arch = "x86_64")]
fn read_mxcsr() -> u32 {
    let mut value: u32 = 0;
    // SAFETY: stmxcsr stores the 32-bit MXCSR register to the given address,
    // which points at a live, aligned u32.
    unsafe {
        std::arch::asm!("stmxcsr [{}]", in(reg) &mut value, options(nostack, preserves_flags));
    }
    value
}

#[cfg(target_arch = "x86_64")]
fn write_mxcsr(value: u32) {
    // SAFETY: ldmxcsr loads MXCSR from the given address; only the FTZ and DAZ
    // mode bits differ from a value read from the register itself, and setting
    // them cannot fault.
    unsafe {
        std::arch::asm!("ldmxcsr [{}]", in(reg) &value, options(nostack, readonly, preserves_flags));
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;
    use std::hint::black_box;

    #[test]
    fn subnormals_flush_inside_the_guard_only() {
        let tiny = black_box(f64::MIN_POSITIVE);
        assert!(black_box(tiny / 4.0) > 0.0);
        {
            let _guard = FlushDenormals::new();
            assert_eq!(black_box(tiny) / black_box(4.0), 0.0);
        }
        assert!(black_box(tiny) / black_box(4.0) > 0.0);
    }
}
