//! Small dense linear solves for the Newton iteration (n ≤ a few dozen).

/// Solves `a·x = b` in place by Gaussian elimination with partial pivoting:
/// `a` is row-major n×n and is destroyed, `b` becomes `x`. Returns `false`
/// (leaving garbage) if `a` is singular to working precision. Allocates nothing.
pub fn solve_in_place(a: &mut [f64], b: &mut [f64]) -> bool {
    let n = b.len();
    debug_assert_eq!(a.len(), n * n);
    for col in 0..n {
        let mut pivot = col;
        for row in col + 1..n {
            if a[row * n + col].abs() > a[pivot * n + col].abs() {
                pivot = row;
            }
        }
        let p = a[pivot * n + col];
        if p == 0.0 || !p.is_finite() {
            return false;
        }
        if pivot != col {
            for k in 0..n {
                a.swap(col * n + k, pivot * n + k);
            }
            b.swap(col, pivot);
        }
        for row in col + 1..n {
            let f = a[row * n + col] / p;
            if f != 0.0 {
                for k in col..n {
                    a[row * n + k] -= f * a[col * n + k];
                }
                b[row] -= f * b[col];
            }
        }
    }
    for col in (0..n).rev() {
        let mut x = b[col];
        for k in col + 1..n {
            x -= a[col * n + k] * b[k];
        }
        b[col] = x / a[col * n + col];
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_a_system_that_needs_pivoting() {
        // [0 2 1; 1 1 0; 2 0 3]·(1, 2, 3) = (7, 3, 11); the zero in the first
        // pivot position forces a row swap.
        let mut a = [0.0, 2.0, 1.0, 1.0, 1.0, 0.0, 2.0, 0.0, 3.0];
        let mut b = [7.0, 3.0, 11.0];
        assert!(solve_in_place(&mut a, &mut b));
        for (x, want) in b.iter().zip([1.0, 2.0, 3.0]) {
            assert!((x - want).abs() < 1e-12, "{b:?}");
        }
    }

    #[test]
    fn reports_a_singular_matrix() {
        let mut a = [1.0, 2.0, 2.0, 4.0];
        let mut b = [1.0, 1.0];
        assert!(!solve_in_place(&mut a, &mut b));
    }
}
