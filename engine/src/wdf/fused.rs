//! Multiply-add, fused or not: kernels are written once over [`MulAdd`] and
//! compiled twice, with fused multiply-adds in a function built for processors
//! that have them (chosen at run time) and with separate operations otherwise.
//! (`f64::mul_add` without the FMA instruction is a slow library call, so the
//! fused form must never run in the plain build.)

/// How a kernel computes `a·b + c`.
pub(crate) trait MulAdd: Copy {
    /// True in code compiled with FMA and AVX2 (so vector intrinsics may run).
    const FUSED: bool;
    fn mul_add(a: f64, b: f64, c: f64) -> f64;
}

/// `a·b + c` rounded twice: any x86-64.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Separate;

/// `a·b + c` rounded once, in one instruction: only inside functions compiled
/// with the `fma` target feature.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fused;

impl MulAdd for Separate {
    const FUSED: bool = false;
    #[inline(always)]
    fn mul_add(a: f64, b: f64, c: f64) -> f64 {
        a * b + c
    }
}

impl MulAdd for Fused {
    const FUSED: bool = true;
    #[inline(always)]
    fn mul_add(a: f64, b: f64, c: f64) -> f64 {
        a.mul_add(b, c)
    }
}

/// Whether this processor has fused multiply-add (and AVX2, which every such
/// x86-64 processor has too).
pub(crate) fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("fma") && std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}
