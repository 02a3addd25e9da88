//! Many antiparallel-diode solves at once, four lanes per AVX2 register.
//!
//! The same algorithm as the scalar solve (closed-form seed, two Newton steps
//! carrying `exp(v/Vt) − 1` and its reciprocal), with the seed's Wright omega taken
//! from a table instead of logarithms and `exp − 1` from a polynomial, so that
//! every step is a vector instruction. Lanes whose seed falls outside what the fast
//! path covers are flagged and solved again by the scalar code.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use super::omega_table;

/// Constants of one diode pair at its port.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PairConstants {
    pub r_is: f64,
    pub inverse_thermal: f64,
    pub thermal: f64,
    pub log_ratio: f64,
}

/// Solves `v[k]` for every `a[k]`, four lanes at a time; lanes the vector path
/// cannot vouch for are solved by `fallback`. One function holds the whole loop,
/// so the processor overlaps the independent chunks.
///
/// # Safety
/// The processor must support AVX2 and FMA ([`super::fused::available`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn solve_pairs(
    c: &PairConstants,
    table: &[[f64; 4]],
    a: &[f64],
    v: &mut [f64],
    fallback: impl Fn(f64) -> f64,
) {
    // Four registers per step: their dependency chains are independent, so the
    // processor interleaves them and hides the latency of the divisions. The rest
    // goes one register at a time.
    let whole = a.len() / 16 * 16;
    let (a_rest, v_rest) = (&a[whole..], &mut v[whole..]);
    for (a, v) in a_rest.chunks(4).zip(v_rest.chunks_mut(4)) {
        let mut lanes = [0.0; 4];
        lanes[..a.len()].copy_from_slice(a);
        let (out, exact) = solve_pair4(c, table, lanes);
        for (k, v) in v.iter_mut().enumerate() {
            *v = if exact & (1 << k) != 0 {
                out[k]
            } else {
                fallback(a[k])
            };
        }
    }
    for (a, v) in a[..whole]
        .chunks_exact(16)
        .zip(v[..whole].chunks_exact_mut(16))
    {
        let mut lanes = [0.0; 16];
        lanes.copy_from_slice(a);
        let quarter = |q: usize| {
            [
                lanes[4 * q],
                lanes[4 * q + 1],
                lanes[4 * q + 2],
                lanes[4 * q + 3],
            ]
        };
        let results = [
            solve_pair4(c, table, quarter(0)),
            solve_pair4(c, table, quarter(1)),
            solve_pair4(c, table, quarter(2)),
            solve_pair4(c, table, quarter(3)),
        ];
        for (k, v) in v.iter_mut().enumerate() {
            let (out, exact) = results[k / 4];
            *v = if exact & (1 << (k % 4)) != 0 {
                out[k % 4]
            } else {
                fallback(a[k])
            };
        }
    }
}

/// Solves four pairs: `v = solve(a)` per lane. Returns the voltages and a bit mask
/// of the lanes whose result is exact (the others must be redone).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[inline]
fn solve_pair4(c: &PairConstants, table: &[[f64; 4]], a: [f64; 4]) -> ([f64; 4], i32) {
    let splat = _mm256_set1_pd;
    let sign_bit = splat(-0.0);
    // SAFETY: `a` is four f64s.
    let a = unsafe { _mm256_loadu_pd(a.as_ptr()) };
    let magnitude = _mm256_andnot_pd(sign_bit, a);
    let (r_is, inv_vt) = (splat(c.r_is), splat(c.inverse_thermal));
    let one = splat(1.0);

    // Seed: the single-diode closed form with ω interpolated from the table.
    let x = _mm256_fmadd_pd(_mm256_add_pd(magnitude, r_is), inv_vt, splat(c.log_ratio));
    let end = omega_table::START + omega_table::INTERVALS as f64 * omega_table::STEP;
    let in_table = _mm256_and_pd(
        _mm256_cmp_pd::<_CMP_GE_OQ>(x, splat(omega_table::START)),
        _mm256_cmp_pd::<_CMP_LT_OQ>(x, splat(end)),
    );
    let position = _mm256_min_pd(
        _mm256_max_pd(
            _mm256_mul_pd(
                _mm256_sub_pd(x, splat(omega_table::START)),
                splat(1.0 / omega_table::STEP),
            ),
            _mm256_setzero_pd(),
        ),
        splat(omega_table::INTERVALS as f64 - 1e-9),
    );
    let index = _mm256_cvttpd_epi32(position);
    let t = _mm256_sub_pd(position, _mm256_cvtepi32_pd(index));
    let offsets = _mm_slli_epi32::<2>(index);
    let base = table.as_ptr() as *const f64;
    // SAFETY: every index is clamped into [0, INTERVALS − 1], and the table holds
    // INTERVALS rows of four f64.
    let coefficient =
        |k: i32| unsafe { _mm256_i32gather_pd::<8>(base.offset(k as isize), offsets) };
    let omega = _mm256_fmadd_pd(
        t,
        _mm256_fmadd_pd(
            t,
            _mm256_fmadd_pd(t, coefficient(3), coefficient(2)),
            coefficient(1),
        ),
        coefficient(0),
    );
    let v0 = _mm256_fnmadd_pd(splat(c.thermal), omega, _mm256_add_pd(magnitude, r_is));
    let m0 = exp_m1(_mm256_mul_pd(v0, inv_vt));
    let inverse0 = _mm256_div_pd(one, _mm256_add_pd(one, m0));

    // Newton step on v + R·Is·m·(1 + 1/e) − |a| = 0, with e = 1 + m.
    let step = |v: __m256d, m: __m256d, inverse: __m256d| {
        let residual = _mm256_sub_pd(
            _mm256_fmadd_pd(_mm256_mul_pd(r_is, m), _mm256_add_pd(one, inverse), v),
            magnitude,
        );
        let slope = _mm256_fmadd_pd(
            _mm256_mul_pd(r_is, inv_vt),
            _mm256_add_pd(_mm256_add_pd(one, m), inverse),
            one,
        );
        _mm256_div_pd(residual, slope)
    };
    let s1 = step(v0, m0, inverse0);
    let d1 = _mm256_mul_pd(s1, _mm256_sub_pd(_mm256_setzero_pd(), inv_vt));
    let small_step = _mm256_cmp_pd::<_CMP_LE_OQ>(_mm256_andnot_pd(sign_bit, d1), splat(1e-3));
    let v1 = _mm256_sub_pd(v0, s1);
    let m1 = _mm256_fmadd_pd(_mm256_add_pd(one, m0), exp_m1_small(d1), m0);
    let inverse1 = _mm256_fmadd_pd(
        inverse0,
        exp_m1_small(_mm256_sub_pd(_mm256_setzero_pd(), d1)),
        inverse0,
    );
    let v2 = _mm256_sub_pd(v1, step(v1, m1, inverse1));
    let v2 = _mm256_min_pd(_mm256_max_pd(v2, _mm256_setzero_pd()), magnitude);
    let signed = _mm256_or_pd(v2, _mm256_and_pd(a, sign_bit));

    let mut out = [0.0; 4];
    // SAFETY: `out` is four f64s.
    unsafe { _mm256_storeu_pd(out.as_mut_ptr(), signed) };
    (out, _mm256_movemask_pd(_mm256_and_pd(in_table, small_step)))
}

/// `exp(d) − 1` for |d| ≤ 1e-3 (Taylor to the fifth order).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn exp_m1_small(d: __m256d) -> __m256d {
    let splat = _mm256_set1_pd;
    let mut p = splat(1.0 / 120.0);
    for coefficient in [1.0 / 24.0, 1.0 / 6.0, 0.5, 1.0] {
        p = _mm256_fmadd_pd(p, d, splat(coefficient));
    }
    _mm256_mul_pd(p, d)
}

/// `exp(x) − 1` within two ulps for |x| ≤ 700 (clamped beyond): Cody–Waite
/// reduction, a degree-13 Taylor polynomial, scaling by 2ⁿ through the exponent
/// bits; below |x| = 1/4 the series of `x` itself, which does not cancel.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn exp_m1(x: __m256d) -> __m256d {
    const MAGIC: f64 = 6_755_399_441_055_744.0; // 1.5·2⁵²
    let splat = _mm256_set1_pd;
    let x = _mm256_min_pd(_mm256_max_pd(x, splat(-700.0)), splat(700.0));
    let shifted = _mm256_fmadd_pd(x, splat(std::f64::consts::LOG2_E), splat(MAGIC));
    let n = _mm256_sub_pd(shifted, splat(MAGIC));
    // ln 2 split so that n·LN2_HI is exact (fdlibm's constants).
    let (ln2_hi, ln2_lo) = (
        f64::from_bits(0x3FE6_2E42_FEE0_0000),
        f64::from_bits(0x3DEA_39EF_3579_3C76),
    );
    let r = _mm256_fnmadd_pd(n, splat(ln2_hi), x);
    let r = _mm256_fnmadd_pd(n, splat(ln2_lo), r);
    let series = |r: __m256d| {
        let mut p = splat(1.0 / 6_227_020_800.0);
        for factorial in [
            479_001_600.0,
            39_916_800.0,
            3_628_800.0,
            362_880.0,
            40_320.0,
            5_040.0,
            720.0,
            120.0,
            24.0,
            6.0,
            2.0,
            1.0,
        ] {
            p = _mm256_fmadd_pd(p, r, splat(1.0 / factorial));
        }
        _mm256_mul_pd(p, r)
    };
    let exponent = _mm256_add_epi64(
        _mm256_sub_epi64(
            _mm256_castpd_si256(shifted),
            _mm256_castpd_si256(splat(MAGIC)),
        ),
        _mm256_set1_epi64x(1023),
    );
    let scale = _mm256_castsi256_pd(_mm256_slli_epi64::<52>(exponent));
    // (series + 1)·2ⁿ − 1, as series·2ⁿ + (2ⁿ − 1).
    let large = _mm256_fmadd_pd(series(r), scale, _mm256_sub_pd(scale, splat(1.0)));
    let near_zero = _mm256_cmp_pd::<_CMP_LT_OQ>(_mm256_andnot_pd(splat(-0.0), x), splat(0.25));
    _mm256_blendv_pd(large, series(x), near_zero)
}
