//! A bounded Nelder–Mead search (Nelder & Mead, "A simplex method for
//! function minimization", 1965): the minimum of a function of a few
//! coordinates inside a box, in as few evaluations as a budget allows. Each
//! trial point is projected onto the box (every coordinate clamped to its
//! bounds), so no point outside it is ever evaluated.

/// Reflection coefficient of the worst point through the centroid of the others.
const REFLECT: f64 = 1.0;
/// Expansion coefficient: how far past the reflected point to try.
const EXPAND: f64 = 2.0;
/// Contraction coefficient: how far toward the centroid to try.
const CONTRACT: f64 = 0.5;
/// Shrink coefficient: how far every point moves toward the best one.
const SHRINK: f64 = 0.5;

/// The best point a search found.
#[derive(Debug, Clone, PartialEq)]
pub struct Minimum {
    /// Its coordinates, inside the bounds.
    pub point: Vec<f64>,
    /// The function's value there.
    pub value: f64,
    /// How many times the function was evaluated.
    pub evaluations: usize,
}

/// Where and how a search starts and when it stops.
#[derive(Debug, Clone, PartialEq)]
pub struct Search {
    /// The starting point (clamped to `bounds`).
    pub start: Vec<f64>,
    /// The function's value at the start, if already known: it is not
    /// evaluated there again, but counts as one evaluation.
    pub start_value: Option<f64>,
    /// The lowest and highest value of each coordinate.
    pub bounds: Vec<(f64, f64)>,
    /// The initial simplex's edge along each coordinate (taken toward the
    /// inside of the box when the step outward would cross a bound).
    pub steps: Vec<f64>,
    /// Most evaluations of the function.
    pub budget: usize,
    /// The search stops once every point of the simplex lies within this of
    /// the best one along every coordinate.
    pub tolerance: f64,
}

/// A point of the simplex and the function's value there.
type Vertex = (Vec<f64>, f64);

impl Search {
    /// Minimises `f` from `self.start` inside `self.bounds`; a NaN value
    /// counts as worse than any other. Evaluates `f` at most `self.budget`
    /// times (at least once, at the start). When the simplex collapses (on
    /// a bound, where the projection flattens it, or at a minimum) it is
    /// built again around its best point, for as long as that finds a lower
    /// value.
    pub fn minimize(&self, mut f: impl FnMut(&[f64]) -> f64) -> Minimum {
        let mut counted = Counted {
            f: &mut f,
            count: 0,
        };
        let start = self.clamp(&self.start);
        let first = match self.start_value {
            Some(value) if start == self.start => {
                counted.count += 1;
                (start, if value.is_nan() { f64::INFINITY } else { value })
            }
            _ => counted.evaluate(start),
        };
        let mut simplex = self.around(first, &mut counted);
        let mut best_at_start = f64::INFINITY;
        while simplex.len() == self.start.len() + 1 && self.evaluations_left(counted.count) {
            if !self.done(&simplex) {
                self.step(&mut simplex, &mut counted);
                continue;
            }
            let best = lowest(simplex);
            if best.1 >= best_at_start {
                simplex = vec![best];
                break;
            }
            best_at_start = best.1;
            simplex = self.around(best, &mut counted);
        }
        let (point, value) = lowest(simplex);
        Minimum {
            point,
            value,
            evaluations: counted.count,
        }
    }

    /// A simplex of `first` and a point a step from it along each
    /// coordinate (toward the inside of the box where a step outward would
    /// cross a bound), as far as the budget goes.
    fn around<F: FnMut(&[f64]) -> f64>(
        &self,
        first: Vertex,
        counted: &mut Counted<'_, F>,
    ) -> Vec<Vertex> {
        let mut simplex = vec![first];
        for i in 0..self.start.len() {
            if !self.evaluations_left(counted.count) {
                break;
            }
            let mut point = simplex[0].0.clone();
            let (low, high) = self.bounds[i];
            point[i] = if point[i] + self.steps[i] <= high {
                point[i] + self.steps[i]
            } else {
                (point[i] - self.steps[i]).max(low)
            };
            simplex.push(counted.evaluate(point));
        }
        simplex
    }

    /// One step of Nelder & Mead's method on `simplex` (`dims + 1`
    /// vertices): the worst vertex reflected, expanded, contracted, or the
    /// whole simplex shrunk toward the best, within the budget.
    fn step<F: FnMut(&[f64]) -> f64>(&self, simplex: &mut [Vertex], counted: &mut Counted<'_, F>) {
        let dims = simplex.len() - 1;
        simplex.sort_by(|a, b| a.1.total_cmp(&b.1));
        let worst = simplex[dims].clone();
        let centroid: Vec<f64> = (0..dims)
            .map(|i| simplex[..dims].iter().map(|v| v.0[i]).sum::<f64>() / dims as f64)
            .collect();
        let toward = |t: f64| -> Vec<f64> {
            let point: Vec<f64> = (0..dims)
                .map(|i| centroid[i] + t * (worst.0[i] - centroid[i]))
                .collect();
            self.clamp(&point)
        };
        let reflected = counted.evaluate(toward(-REFLECT));
        if reflected.1 < simplex[0].1 && self.evaluations_left(counted.count) {
            let expanded = counted.evaluate(toward(-REFLECT * EXPAND));
            simplex[dims] = if expanded.1 < reflected.1 {
                expanded
            } else {
                reflected
            };
            return;
        }
        if reflected.1 < simplex[dims - 1].1 {
            simplex[dims] = reflected;
            return;
        }
        if !self.evaluations_left(counted.count) {
            keep_better(&mut simplex[dims], reflected);
            return;
        }
        // Contract: outside if the reflection beat the worst, else inside
        // (also when the bounds put the outside contraction where the
        // reflection already is).
        let outside = toward(-REFLECT * CONTRACT);
        let (contracted, beaten) = if reflected.1 < worst.1 && outside != reflected.0 {
            let c = counted.evaluate(outside);
            let beaten = c.1 <= reflected.1;
            (c, beaten)
        } else {
            let c = counted.evaluate(toward(CONTRACT));
            let beaten = c.1 < worst.1.min(reflected.1);
            (c, beaten)
        };
        if beaten {
            simplex[dims] = contracted;
            return;
        }
        keep_better(&mut simplex[dims], reflected);
        keep_better(&mut simplex[dims], contracted);
        // Shrink toward the best point, as far as the budget goes.
        let best = simplex[0].0.clone();
        for vertex in simplex.iter_mut().skip(1) {
            if !self.evaluations_left(counted.count) {
                break;
            }
            let point: Vec<f64> = (0..dims)
                .map(|i| best[i] + SHRINK * (vertex.0[i] - best[i]))
                .collect();
            *vertex = counted.evaluate(point);
        }
    }

    /// `point` with every coordinate clamped to its bounds.
    fn clamp(&self, point: &[f64]) -> Vec<f64> {
        point
            .iter()
            .zip(&self.bounds)
            .map(|(&x, &(low, high))| x.clamp(low, high))
            .collect()
    }

    /// Whether `used` evaluations leave any of the budget.
    fn evaluations_left(&self, used: usize) -> bool {
        used < self.budget
    }

    /// Whether every point of `simplex` lies within the tolerance of the
    /// first along every coordinate.
    fn done(&self, simplex: &[Vertex]) -> bool {
        let first = &simplex[0].0;
        simplex.iter().all(|(point, _)| {
            point
                .iter()
                .zip(first)
                .all(|(x, y)| (x - y).abs() <= self.tolerance)
        })
    }
}

/// A function and how many times it has been evaluated.
struct Counted<'a, F> {
    f: &'a mut F,
    count: usize,
}

impl<F: FnMut(&[f64]) -> f64> Counted<'_, F> {
    /// The vertex at `point`; a NaN value counts as infinite.
    fn evaluate(&mut self, point: Vec<f64>) -> Vertex {
        self.count += 1;
        let value = (self.f)(&point);
        (point, if value.is_nan() { f64::INFINITY } else { value })
    }
}

/// The vertex of `simplex` with the lowest value.
fn lowest(simplex: Vec<Vertex>) -> Vertex {
    simplex
        .into_iter()
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .expect("a simplex has a vertex")
}

/// Replaces `vertex` with `other` if `other` has the lower value.
fn keep_better(vertex: &mut Vertex, other: Vertex) {
    if other.1 < vertex.1 {
        *vertex = other;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search(start: &[f64], bounds: &[(f64, f64)], budget: usize) -> Search {
        Search {
            start: start.to_vec(),
            start_value: None,
            bounds: bounds.to_vec(),
            steps: vec![0.5; start.len()],
            budget,
            tolerance: 1e-6,
        }
    }

    #[test]
    fn finds_the_minimum_of_a_bowl_inside_the_box() {
        let bowl = |x: &[f64]| (x[0] - 1.3).powi(2) + 4.0 * (x[1] + 0.7).powi(2) + 2.0;
        let found = search(&[0.0, 0.0], &[(-5.0, 5.0), (-5.0, 5.0)], 200).minimize(bowl);
        assert!((found.point[0] - 1.3).abs() < 1e-3, "{found:?}");
        assert!((found.point[1] + 0.7).abs() < 1e-3, "{found:?}");
        assert!((found.value - 2.0).abs() < 1e-6, "{found:?}");
    }

    #[test]
    fn follows_a_curved_valley() {
        // Rosenbrock's valley, minimum 0 at (1, 1).
        let valley = |x: &[f64]| 100.0 * (x[1] - x[0] * x[0]).powi(2) + (1.0 - x[0]).powi(2);
        let found = search(&[-1.2, 1.0], &[(-3.0, 3.0), (-3.0, 3.0)], 600).minimize(valley);
        assert!(found.value < 1e-4, "{found:?}");
        assert!((found.point[0] - 1.0).abs() < 0.02, "{found:?}");
    }

    #[test]
    fn never_leaves_the_box_and_stops_on_the_bound_nearest_the_minimum() {
        let bounds = [(0.0, 1.0), (-2.0, -1.0), (0.0, 3.0)];
        let mut outside = 0;
        let bowl = |x: &[f64]| {
            outside += x
                .iter()
                .zip(&bounds)
                .filter(|(v, (low, high))| *v < low || *v > high)
                .count();
            (x[0] - 4.0).powi(2) + x[1].powi(2) + (x[2] - 1.0).powi(2)
        };
        let found = search(&[0.5, -1.5, 2.9], &bounds, 300).minimize(bowl);
        assert_eq!(outside, 0);
        assert!((found.point[0] - 1.0).abs() < 1e-3, "{found:?}");
        assert!((found.point[1] + 1.0).abs() < 1e-3, "{found:?}");
        assert!((found.point[2] - 1.0).abs() < 1e-3, "{found:?}");
    }

    #[test]
    fn spends_no_more_than_its_budget() {
        for budget in [1, 2, 3, 5, 17] {
            let mut calls = 0;
            let found = search(&[3.0, 3.0], &[(-9.0, 9.0), (-9.0, 9.0)], budget).minimize(|x| {
                calls += 1;
                x[0].powi(2) + x[1].powi(2)
            });
            assert_eq!(calls, found.evaluations);
            assert_eq!(calls, budget, "budget {budget}");
        }
    }

    #[test]
    fn a_step_past_a_bound_goes_the_other_way_and_nan_is_worst() {
        // Started on the upper bound: the first step is taken downward, where
        // the minimum lies; NaN above 0.5 must not attract the search.
        let f = |x: &[f64]| {
            if x[0] > 0.5 {
                f64::NAN
            } else {
                (x[0] - 0.2).powi(2)
            }
        };
        let found = search(&[1.0], &[(0.0, 1.0)], 100).minimize(f);
        assert!((found.point[0] - 0.2).abs() < 1e-3, "{found:?}");
    }

    #[test]
    fn a_known_value_at_the_start_is_not_evaluated_again() {
        let mut at = Vec::new();
        let mut known = search(&[2.0], &[(-5.0, 5.0)], 4);
        known.start_value = Some(4.0);
        let found = known.minimize(|x| {
            at.push(x[0]);
            x[0] * x[0]
        });
        assert_eq!(found.evaluations, 4);
        assert_eq!(at.len(), 3);
        assert!(!at.contains(&2.0), "{at:?}");
        // Out of bounds, the start is moved and evaluated there.
        let mut outside = search(&[9.0], &[(-5.0, 5.0)], 1);
        outside.start_value = Some(81.0);
        assert_eq!(outside.minimize(|x| x[0] * x[0]).value, 25.0);
    }

    #[test]
    fn stops_early_once_the_simplex_has_collapsed() {
        let found = search(&[0.0], &[(-1.0, 1.0)], 10_000).minimize(|x| (x[0] - 0.25).powi(2));
        assert!(found.evaluations < 200, "{found:?}");
        assert!((found.point[0] - 0.25).abs() < 1e-5, "{found:?}");
    }
}
