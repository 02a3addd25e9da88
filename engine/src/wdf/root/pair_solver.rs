//! A diode pair's tabulated solve, set up for a block of samples: what a kernel
//! calls inline (four lanes at once where it can) when its root is a diode pair
//! with a table matching its port.

use crate::wdf::fused::MulAdd;
use crate::wdf::pair_table::PairView;

/// The solve a pair's table falls back on above its range.
pub(crate) trait ExactPair {
    /// Voltage across the pair for incident wave `a` (V), solved without the
    /// table.
    fn solve_pair_exact(&self, a: f64) -> f64;
}

/// A diode pair's tabulated solve, set up for a block of samples, falling
/// back on the pair's exact solve `E` (a [`super::DiodeModel`]).
#[derive(Debug)]
pub(crate) struct PairSolver<'a, E> {
    pub(super) table: PairView<'a>,
    pub(super) exact: &'a E,
}

impl<E> Clone for PairSolver<'_, E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E> Copy for PairSolver<'_, E> {}

impl<E: ExactPair> PairSolver<'_, E> {
    /// Voltage across the pair for incident wave `a`: from the table, or by
    /// Newton's method above it.
    #[inline(always)]
    pub fn solve<M: MulAdd>(&self, a: f64) -> f64 {
        match self.table.voltage::<M>(a.abs()) {
            Some(v) => v.copysign(a),
            None => self.exact.solve_pair_exact(a),
        }
    }

    /// The wave the pair reflects for incident wave `a`.
    #[inline(always)]
    pub fn reflect<M: MulAdd>(&self, a: f64) -> f64 {
        M::mul_add(2.0, self.solve::<M>(a), -a)
    }

    /// Reflects four incident waves in place: in vector registers when compiled
    /// with FMA and all four lie in the table, one by one otherwise.
    #[inline(always)]
    pub fn reflect4<M: MulAdd>(&self, waves: &mut [f64; 4]) {
        #[cfg(target_arch = "x86_64")]
        if M::FUSED {
            // SAFETY: `Fused` code runs only where FMA and AVX2 were detected.
            if let Some(v) = unsafe { self.table.voltage4(waves.map(f64::abs)) } {
                for (a, v) in waves.iter_mut().zip(v) {
                    *a = M::mul_add(2.0, v.copysign(*a), -*a);
                }
                return;
            }
        }
        for a in waves {
            *a = self.reflect::<M>(*a);
        }
    }
}
