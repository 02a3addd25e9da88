//! The antiparallel diode pair's solution tabulated for one port resistance.
//!
//! At a port of resistance `R`, the pair's voltage `v` for an incident wave `a` is
//! the root of `v + 2·R·Is·sinh(v/Vt) = a`: for a fixed tree one smooth, odd
//! function of one variable. In normalised units `u = v/Vt`, `α = |a|/Vt` it is
//! `u + κ·sinh(u) = α` with `κ = 2·R·Is/Vt`. This module samples that function
//! with the exact Newton solve when a tree is built and stores, for each of 2^m
//! intervals per octave of `|a|` (in volts), a degree-7 polynomial (Chebyshev interpolation,
//! kept in monomial form about the interval's midpoint). Every interval is
//! checked against the exact solve between its nodes before the table is
//! accepted, so a lookup is as exact as the Newton solve it replaces (the build
//! aims at 2e-14 relative and accepts nothing worse than [`ACCEPTED_ERROR`]); a
//! sample then costs a bit manipulation, one load and an Estrin polynomial, with
//! no division and no `exp` in its dependency chain.
//!
//! The interval of `|a|` comes straight from its binary representation: the
//! exponent and the first `m` mantissa bits are the index, and setting the next
//! bit gives the interval's midpoint.

use super::fused::{MulAdd, Separate};

/// Lowest octave tabulated, V: below `2^LOW_EXPONENT` (30 nV) the pair is linear
/// to far below an ulp for any thermal voltage above 1 mV (a cubic correction
/// is added all the same).
const LOW_EXPONENT: i32 = -25;
/// The table ends at `|a| = 2^HIGH_EXPONENT` V; larger waves take the Newton
/// solve.
const HIGH_EXPONENT: i32 = 7;
/// Intervals per octave tried: `2^m` for m in this range.
const BITS_PER_OCTAVE: std::ops::RangeInclusive<u32> = 3..=8;
/// Largest relative error of `v` between nodes that a table may have.
pub(crate) const ACCEPTED_ERROR: f64 = 1e-13;

/// Interpolation nodes per interval (the polynomial's degree plus one).
const NODES: usize = 8;

/// The tabulated solution for one diode pair at one port resistance.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PairTable {
    /// `κ = 2·R·Is/Vt` it was built for.
    kappa: f64,
    grid: Grid,
    /// Per interval, the polynomial in `|a| − midpoint`, lowest order first.
    coefficients: Box<[Interval]>,
}

/// Where the intervals lie, as bit patterns of `|a|`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Grid {
    /// Bits of `2^LOW_EXPONENT` V, and how far above them the table reaches.
    low_bits: u64,
    span_bits: u64,
    /// Mantissa bits below the interval index: `52 − m`.
    shift: u32,
    /// Below the table: `v = |a|·linear − |a|³·cubic` (1 and V⁻²).
    linear: f64,
    cubic: f64,
}

/// A table borrowed for a block: the grid copied out (so a kernel keeps it in
/// registers) and the coefficients.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PairView<'a> {
    grid: Grid,
    coefficients: &'a [Interval],
}

/// One interval's polynomial, on its own cache line.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(align(64))]
struct Interval([f64; NODES]);

impl PairTable {
    /// Builds the table for a pair with `κ = 2·R·Is/Vt` and thermal voltage
    /// `thermal_volts` from `exact`, the exact solve `|a| ↦ v` in volts; the
    /// coarsest grid that is accurate enough is used. `None` if no grid reaches
    /// [`ACCEPTED_ERROR`] (then every sample takes the Newton solve).
    pub fn build(kappa: f64, thermal_volts: f64, exact: impl Fn(f64) -> f64) -> Option<Self> {
        if !(kappa.is_finite() && kappa > 0.0 && thermal_volts >= 1e-3) {
            return None;
        }
        // u(1 + κ) + κ·u³/6 = α to third order.
        let linear = 1.0 / (1.0 + kappa);
        let cubic = kappa / 6.0 * linear.powi(4) / (thermal_volts * thermal_volts);
        BITS_PER_OCTAVE.into_iter().find_map(|bits| {
            let table = Self::with_grid(kappa, bits, linear, cubic, &exact);
            (table.worst_error(&exact) <= ACCEPTED_ERROR).then_some(table)
        })
    }

    /// The table with `2^bits` intervals per octave.
    fn with_grid(
        kappa: f64,
        bits: u32,
        linear: f64,
        cubic: f64,
        exact: &impl Fn(f64) -> f64,
    ) -> Self {
        let low_bits = 2f64.powi(LOW_EXPONENT).to_bits();
        let span_bits = 2f64.powi(HIGH_EXPONENT).to_bits() - low_bits;
        let shift = 52 - bits;
        let coefficients = (0..span_bits >> shift)
            .map(|k| {
                let (mid, half) = interval(low_bits + (k << shift), shift);
                Interval(fit(mid, half, exact))
            })
            .collect();
        Self {
            kappa,
            grid: Grid {
                low_bits,
                span_bits,
                shift,
                linear,
                cubic,
            },
            coefficients,
        }
    }

    /// The `κ = 2·R·Is/Vt` this table solves.
    pub fn kappa(&self) -> f64 {
        self.kappa
    }

    /// The table for a block of lookups.
    pub fn view(&self) -> PairView<'_> {
        PairView {
            grid: self.grid,
            coefficients: &self.coefficients,
        }
    }

    /// The largest relative error of the table against `exact` at points between
    /// the nodes of every interval.
    fn worst_error(&self, exact: &impl Fn(f64) -> f64) -> f64 {
        let mut worst: f64 = 0.0;
        let (view, grid) = (self.view(), self.grid);
        for k in 0..self.coefficients.len() as u64 {
            let (mid, half) = interval(grid.low_bits + (k << grid.shift), grid.shift);
            for s in [-0.999, -0.93, -0.6, 0.0, 0.33, 0.8, 0.97] {
                let magnitude = mid + s * half;
                let reference = exact(magnitude);
                let ours = view.voltage::<Separate>(magnitude).unwrap_or(f64::NAN);
                let error = ((ours - reference) / reference).abs();
                if error.is_nan() {
                    return f64::INFINITY;
                }
                worst = worst.max(error);
            }
        }
        worst
    }
}

impl PairView<'_> {
    /// The pair's voltage (V, positive) for an incident wave of magnitude
    /// `magnitude ≥ 0` (V), or `None` above the table (or for NaN).
    #[inline(always)]
    pub fn voltage<M: MulAdd>(&self, magnitude: f64) -> Option<f64> {
        let grid = &self.grid;
        let bits = magnitude.to_bits();
        // One comparison: below the table wraps around to a huge offset, and
        // NaN and infinity lie above it.
        let offset = bits.wrapping_sub(grid.low_bits);
        if offset >= grid.span_bits {
            return grid.outside::<M>(magnitude);
        }
        let index = (offset >> grid.shift) as usize;
        // The interval's midpoint: its leading bits, then a one.
        let mid = f64::from_bits((bits >> grid.shift << grid.shift) | (1 << (grid.shift - 1)));
        let d = magnitude - mid;
        let [c0, c1, c2, c3, c4, c5, c6, c7] = self.coefficients.get(index)?.0;
        // Estrin's scheme: three levels instead of seven dependent steps.
        let d2 = d * d;
        let d4 = d2 * d2;
        let low = M::mul_add(d2, M::mul_add(c3, d, c2), M::mul_add(c1, d, c0));
        let high = M::mul_add(d2, M::mul_add(c7, d, c6), M::mul_add(c5, d, c4));
        Some(M::mul_add(d4, high, low))
    }
}

impl PairView<'_> {
    /// [`PairView::voltage`] for four magnitudes at once, in AVX2 registers: the
    /// four intervals' rows are loaded and transposed, and one Estrin scheme
    /// runs for all four. `None` unless all four lie in the table.
    ///
    /// # Safety
    /// The processor must support AVX2 and FMA.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    pub unsafe fn voltage4(&self, magnitude: [f64; 4]) -> Option<[f64; 4]> {
        use std::arch::x86_64::*;
        let grid = &self.grid;
        // SAFETY: four f64 read from a four-element array.
        let m = unsafe { _mm256_loadu_pd(magnitude.as_ptr()) };
        let bits = _mm256_castpd_si256(m);
        let offset = _mm256_sub_epi64(bits, _mm256_set1_epi64x(grid.low_bits as i64));
        // Magnitudes are non-negative, so an offset is either a small positive
        // number (at or above the table's start) or wrapped negative (below).
        let span = _mm256_set1_epi64x(grid.span_bits as i64);
        let inside = _mm256_andnot_si256(
            _mm256_cmpgt_epi64(_mm256_setzero_si256(), offset),
            _mm256_cmpgt_epi64(span, offset),
        );
        if _mm256_movemask_pd(_mm256_castsi256_pd(inside)) != 0b1111 {
            return None;
        }
        let shift = _mm_cvtsi32_si128(grid.shift as i32);
        let mut index = [0u64; 4];
        // SAFETY: 32 bytes written to a four-element u64 array.
        unsafe { _mm256_storeu_si256(index.as_mut_ptr().cast(), _mm256_srl_epi64(offset, shift)) };
        let mask = _mm256_set1_epi64x((u64::MAX << grid.shift) as i64);
        let half = _mm256_set1_epi64x((1u64 << (grid.shift - 1)) as i64);
        let mid = _mm256_or_si256(_mm256_and_si256(bits, mask), half);
        let d = _mm256_sub_pd(m, _mm256_castsi256_pd(mid));
        // Each lane's eight coefficients: two aligned loads from its cache line.
        let [k0, k1, k2, k3] = index.map(|k| k as usize);
        let rows = [
            &self.coefficients[k0],
            &self.coefficients[k1],
            &self.coefficients[k2],
            &self.coefficients[k3],
        ];
        // SAFETY: AVX2 is available (this function's contract).
        let [c0, c1, c2, c3] = unsafe { transpose(rows, 0) };
        let [c4, c5, c6, c7] = unsafe { transpose(rows, 4) };
        let d2 = _mm256_mul_pd(d, d);
        let d4 = _mm256_mul_pd(d2, d2);
        let low = _mm256_fmadd_pd(d2, _mm256_fmadd_pd(c3, d, c2), _mm256_fmadd_pd(c1, d, c0));
        let high = _mm256_fmadd_pd(d2, _mm256_fmadd_pd(c7, d, c6), _mm256_fmadd_pd(c5, d, c4));
        let mut v = [0.0; 4];
        // SAFETY: four f64 written to a four-element array.
        unsafe { _mm256_storeu_pd(v.as_mut_ptr(), _mm256_fmadd_pd(d4, high, low)) };
        Some(v)
    }
}

/// Coefficients `first..first + 4` of four intervals, one register per
/// coefficient (lane `k` from interval `k`).
///
/// # Safety
/// The processor must support AVX2; `first` is 0 or 4.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[inline]
unsafe fn transpose(rows: [&Interval; 4], first: usize) -> [std::arch::x86_64::__m256d; 4] {
    use std::arch::x86_64::*;
    debug_assert!(first == 0 || first == 4);
    // SAFETY: an `Interval` is 64-byte aligned, so elements 0 and 4 start on
    // 32-byte boundaries, and four elements from either lie within it.
    let [r0, r1, r2, r3] = rows.map(|row| unsafe { _mm256_load_pd(row.0.as_ptr().add(first)) });
    let (t0, t1) = (_mm256_unpacklo_pd(r0, r1), _mm256_unpackhi_pd(r0, r1));
    let (t2, t3) = (_mm256_unpacklo_pd(r2, r3), _mm256_unpackhi_pd(r2, r3));
    [
        _mm256_permute2f128_pd::<0x20>(t0, t2),
        _mm256_permute2f128_pd::<0x20>(t1, t3),
        _mm256_permute2f128_pd::<0x31>(t0, t2),
        _mm256_permute2f128_pd::<0x31>(t1, t3),
    ]
}

impl Grid {
    /// Below the table, the cubic; above it (or NaN), nothing.
    #[cold]
    fn outside<M: MulAdd>(&self, magnitude: f64) -> Option<f64> {
        (magnitude < f64::from_bits(self.low_bits)).then(|| {
            let cube = magnitude * magnitude * magnitude;
            M::mul_add(-cube, self.cubic, magnitude * self.linear)
        })
    }
}

/// Midpoint and half-width of the interval that starts at the bit pattern
/// `start_bits` and spans `2^shift` patterns.
fn interval(start_bits: u64, shift: u32) -> (f64, f64) {
    let start = f64::from_bits(start_bits);
    let end = f64::from_bits(start_bits + (1 << shift));
    (0.5 * (start + end), 0.5 * (end - start))
}

/// The degree-7 polynomial in `x − mid` that interpolates `exact` at the eight
/// Chebyshev nodes of `[mid − half, mid + half]`.
fn fit(mid: f64, half: f64, exact: &impl Fn(f64) -> f64) -> [f64; NODES] {
    use std::f64::consts::PI;
    let n = NODES as f64;
    let angle = |i: usize| PI * (i as f64 + 0.5) / n;
    let values: [f64; NODES] = std::array::from_fn(|i| exact(mid + half * angle(i).cos()));
    // Chebyshev coefficients of the interpolant in s = (x − mid)/half.
    let chebyshev: [f64; NODES] = std::array::from_fn(|k| {
        let sum: f64 = (0..NODES)
            .map(|i| values[i] * (k as f64 * angle(i)).cos())
            .sum();
        sum * if k == 0 { 1.0 / n } else { 2.0 / n }
    });
    // Monomial coefficients in s, from T0 = 1, T1 = s, T(k+1) = 2s·Tk − T(k−1).
    let mut monomial = [0.0; NODES];
    let (mut previous, mut current) = ([0.0; NODES], [0.0; NODES]);
    previous[0] = 1.0;
    current[1] = 1.0;
    for (k, &c) in chebyshev.iter().enumerate() {
        let t = match k {
            0 => previous,
            1 => current,
            _ => {
                let mut next = [0.0; NODES];
                for j in 0..NODES {
                    next[j] = -previous[j] + if j > 0 { 2.0 * current[j - 1] } else { 0.0 };
                }
                previous = current;
                current = next;
                next
            }
        };
        for j in 0..NODES {
            monomial[j] += c * t[j];
        }
    }
    // From s to x − mid: the j-th coefficient scales by half^−j.
    let mut scale = 1.0;
    for c in &mut monomial {
        *c *= scale;
        scale /= half;
    }
    monomial
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `u + κ·sinh(u) = α` solved by bisection-safeguarded Newton, independently
    /// of the diode code.
    fn reference(kappa: f64, alpha: f64) -> f64 {
        let (mut lo, mut hi) = (0.0, alpha);
        let mut u = (alpha / (1.0 + kappa)).min((2.0 * alpha / kappa).ln().max(0.0));
        for _ in 0..200 {
            let f = u + kappa * u.sinh() - alpha;
            if f > 0.0 {
                hi = u;
            } else {
                lo = u;
            }
            let next = u - f / (1.0 + kappa * u.cosh());
            let next = if next > lo && next < hi {
                next
            } else {
                0.5 * (lo + hi)
            };
            if next == u {
                break;
            }
            u = next;
        }
        u
    }

    const VT: f64 = 0.025_85;

    /// Lookups across the whole range, off the verification points, agree with an
    /// independent solve to 1e-13 relative, for small and large `κ`.
    #[test]
    fn table_matches_an_independent_solve() {
        for kappa in [4.1e-5, 1e-12, 0.3, 50.0] {
            let exact = |a: f64| VT * reference(kappa, a / VT);
            let table =
                PairTable::build(kappa, VT, exact).expect("a table within the accepted error");
            let mut a = 1e-9;
            while a < 120.0 {
                let ours = table.view().voltage::<Separate>(a).unwrap();
                let reference = exact(a);
                assert!(
                    ((ours - reference) / reference).abs() < 1e-13,
                    "κ = {kappa}, a = {a} V: {ours} vs {reference}"
                );
                a *= 1.000_913;
            }
            assert_eq!(table.view().voltage::<Separate>(200.0), None);
            assert_eq!(table.view().voltage::<Separate>(f64::NAN), None);
            assert_eq!(table.view().voltage::<Separate>(0.0), Some(0.0));
        }
    }

    /// A solver that is not smooth (here: off by a step) fails verification, and
    /// no table is accepted.
    #[test]
    fn a_table_that_cannot_reach_the_accuracy_is_refused() {
        let kappa = 1e-3;
        let step = |a: f64| if a > 0.33 { 1.0 + 1e-9 } else { 1.0 };
        let rough = |a: f64| VT * reference(kappa, a / VT) * step(a);
        assert!(PairTable::build(kappa, VT, rough).is_none());
    }

    /// Four lookups in vector registers give bit for bit what four fused scalar
    /// lookups give, and refuse a group with a magnitude outside the table.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn vector_lookup_equals_scalar_lookups() {
        use super::super::fused::{self, Fused};
        if !fused::available() {
            return;
        }
        let kappa = 4.1e-5;
        let table = PairTable::build(kappa, VT, |a: f64| VT * reference(kappa, a / VT)).unwrap();
        let view = table.view();
        let mut a = 1e-7;
        while a < 40.0 {
            let quad = [a, a * 1.37, a * 0.61, a * 2.9];
            // SAFETY: FMA and AVX2 were detected above.
            let vector = unsafe { view.voltage4(quad) }.unwrap();
            let scalar = quad.map(|m| view.voltage::<Fused>(m).unwrap());
            assert_eq!(vector, scalar, "a = {a}");
            a *= 1.07;
        }
        // SAFETY: as above.
        unsafe {
            assert_eq!(view.voltage4([0.1, 1e-9, 0.2, 0.3]), None);
            assert_eq!(view.voltage4([0.1, 0.2, 500.0, 0.3]), None);
            assert_eq!(view.voltage4([f64::NAN, 0.2, 0.1, 0.3]), None);
        }
    }
}
