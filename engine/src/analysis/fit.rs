//! Least-squares straight lines, for decay rates and the inharmonicity fit.

/// The line `y = intercept + slope · x` closest to `points` in the least-squares
/// sense; `None` for fewer than two points or when all `x` are equal.
pub fn fit_line(points: impl IntoIterator<Item = (f64, f64)>) -> Option<Line> {
    let (mut n, mut sx, mut sy, mut sxx, mut sxy) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for (x, y) in points {
        n += 1.0;
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    let spread = n * sxx - sx * sx;
    if n < 2.0 || spread <= f64::EPSILON * n * sxx {
        return None;
    }
    let slope = (n * sxy - sx * sy) / spread;
    Some(Line {
        slope,
        intercept: (sy - slope * sx) / n,
    })
}

/// A straight line `y = intercept + slope · x` (units those of the points fitted).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Line {
    /// Rise of `y` per unit of `x`.
    pub slope: f64,
    /// Value of `y` at `x = 0`.
    pub intercept: f64,
}

#[cfg(test)]
mod tests {
    use super::fit_line;

    #[test]
    fn fits_a_line_exactly_and_refuses_degenerate_data() {
        let l = fit_line([(0.0, 1.0), (1.0, 3.0), (2.0, 5.0)]).unwrap();
        assert!((l.slope - 2.0).abs() < 1e-12 && (l.intercept - 1.0).abs() < 1e-12);
        assert!(fit_line([(1.0, 1.0)]).is_none());
        assert!(fit_line([(1.0, 1.0), (1.0, 2.0)]).is_none());
    }
}
