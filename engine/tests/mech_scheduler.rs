//! The mechanical scheduler with a small model: a mass on a spring that bounces
//! off a stiff wall at x = 0, driven by a force an input probe can set.

use std::sync::{Arc, Mutex};

use orchard_engine::mech::{
    Controller, InputProbe, Interpolation, Model, ModelId, ModelState, Monitor, OutputProbe,
    RootModel, SchedulerError, Slot, StepAdjustment,
};
use orchard_engine::props::{PropertyAccess, PropertyError};

/// Stiffness of the wall, N/m.
const WALL: f64 = 1e7;
/// Largest step that may start or end in contact with the wall, s.
const CONTACT_STEP: f64 = 2e-5;

/// A 1 kg mass at `x` (m) with velocity `v` (m/s) on a spring of stiffness `k`
/// (N/m) relaxed at x = 0.2 m, pushed by `force` (N), bouncing off a wall at 0.
/// Integrated by semi-implicit Euler; a step that touches the wall longer than
/// [`CONTACT_STEP`] is rejected, so adaptive stepping must resolve each impact.
struct Bouncer {
    x: f64,
    v: f64,
    k: f64,
    force: f64,
    log: Arc<Mutex<Vec<String>>>,
}

impl Bouncer {
    fn new(log: Arc<Mutex<Vec<String>>>) -> Self {
        Self {
            x: 0.5,
            v: 0.0,
            k: 40.0,
            force: 0.0,
            log,
        }
    }

    fn acceleration(&self, x: f64) -> f64 {
        let wall = if x < 0.0 { -WALL * x } else { 0.0 };
        -self.k * (x - 0.2) + self.force + wall
    }
}

impl Model for Bouncer {
    fn initialize(&mut self, _t: f64) {}

    fn preadvance(&mut self, _t0: f64, _t1: f64) -> Option<StepAdjustment> {
        self.log.lock().unwrap().push("preadvance".into());
        None
    }

    fn advance(&mut self, t0: f64, t1: f64) -> Option<StepAdjustment> {
        self.log.lock().unwrap().push("advance".into());
        let h = t1 - t0;
        let v = self.v + h * self.acceleration(self.x);
        let x = self.x + h * v;
        let touching = self.x < 0.0 || x < 0.0;
        (self.x, self.v) = (x, v);
        (touching && h > CONTACT_STEP).then(|| StepAdjustment::reduce(0.1, "impact"))
    }

    fn max_step_size(&self) -> Option<f64> {
        Some(1e-3)
    }

    fn save_state(&self) -> ModelState {
        ModelState(vec![self.x, self.v])
    }

    fn restore_state(&mut self, state: &ModelState) {
        (self.x, self.v) = (state.0[0], state.0[1]);
    }
}

impl PropertyAccess for Bouncer {
    fn property(&self, path: &str) -> Option<f64> {
        match path {
            "mass:position" => Some(self.x),
            "mass:velocity" => Some(self.v),
            "spring:stiffness" => Some(self.k),
            "drive:force" => Some(self.force),
            _ => None,
        }
    }

    fn set_property(&mut self, path: &str, value: f64) -> Result<(), PropertyError> {
        self.log.lock().unwrap().push(format!("set {path}"));
        match path {
            "mass:position" => self.x = value,
            "mass:velocity" => self.v = value,
            "drive:force" => self.force = value,
            "spring:stiffness" if (0.0..=1e4).contains(&value) => self.k = value,
            "spring:stiffness" => {
                return Err(PropertyError::OutOfRange {
                    path: path.into(),
                    value,
                    min: 0.0,
                    max: 1e4,
                });
            }
            _ => return Err(PropertyError::UnknownPath(path.into())),
        }
        Ok(())
    }
}

/// Records every step's end time, length and position.
struct StepRecorder(Arc<Mutex<Vec<(f64, f64, f64)>>>);

impl Monitor for StepRecorder {
    fn apply(&mut self, t0: f64, t1: f64, model: &dyn PropertyAccess) -> Result<(), PropertyError> {
        let x = model.property("mass:position").unwrap();
        self.0.lock().unwrap().push((t1, t1 - t0, x));
        Ok(())
    }
}

/// A root with the bouncer as model `osc`, its id and the bouncer's call log.
fn root_with_bouncer() -> (RootModel, ModelId, Arc<Mutex<Vec<String>>>) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut root = RootModel::new(0.01, 1e-9).unwrap();
    let id = root.add_model("osc", Box::new(Bouncer::new(log.clone())));
    (root, id, log)
}

#[test]
fn adaptive_stepping_shrinks_at_each_impact_and_grows_back() {
    let (mut root, id, _) = root_with_bouncer();
    let steps = Arc::new(Mutex::new(Vec::new()));
    root.agents_mut(Some(id)).monitors.push(Slot {
        active: true,
        agent: Box::new(StepRecorder(steps.clone())),
    });
    root.initialize().unwrap();
    root.run_until(2.5).unwrap();
    let steps = steps.lock().unwrap();
    let impacts: Vec<usize> = (1..steps.len())
        .filter(|&i| steps[i].2 < 0.0 && steps[i - 1].2 >= 0.0)
        .collect();
    assert!(
        impacts.len() >= 2,
        "the mass bounces ({} impacts)",
        impacts.len()
    );
    for &i in &impacts {
        assert!(
            steps[i].1 <= CONTACT_STEP,
            "step into the wall: {:?}",
            steps[i]
        );
        // Within a few steps of leaving the wall, the step is back at 1 ms.
        let after = (i..steps.len()).find(|&j| steps[j].2 > 0.05).unwrap();
        let recovered = steps[after..]
            .iter()
            .take(40)
            .any(|s| (s.1 - 1e-3).abs() < 1e-12);
        assert!(
            recovered,
            "step did not grow back after the impact at {}",
            steps[i].0
        );
    }
    // No step longer than the model's maximum, and never a tunnel through the wall.
    assert!(steps.iter().all(|s| s.1 <= 1e-3 + 1e-12));
    assert!(
        steps.iter().all(|s| s.2 > -1e-3),
        "penetration stays shallow"
    );
}

#[test]
fn a_step_below_the_minimum_is_an_error_naming_the_model() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut root = RootModel::new(0.01, 1e-3).unwrap();
    root.add_model("osc", Box::new(Bouncer::new(log)));
    root.initialize().unwrap();
    match root.run_until(1.0) {
        Err(SchedulerError::StepTooSmall { model, message, .. }) => {
            assert_eq!(model, "osc");
            assert_eq!(message, "impact");
        }
        other => panic!("expected a step-size error, got {other:?}"),
    }
}

#[test]
fn agents_run_in_artisynth_order() {
    struct Logger(Arc<Mutex<Vec<String>>>, &'static str);
    impl Controller for Logger {
        fn apply(
            &mut self,
            _: f64,
            _: f64,
            _: &mut dyn PropertyAccess,
        ) -> Result<(), PropertyError> {
            self.0.lock().unwrap().push(self.1.into());
            Ok(())
        }
    }
    impl Monitor for Logger {
        fn apply(&mut self, _: f64, _: f64, _: &dyn PropertyAccess) -> Result<(), PropertyError> {
            self.0.lock().unwrap().push(self.1.into());
            Ok(())
        }
    }
    let (mut root, id, log) = root_with_bouncer();
    let agents = root.agents_mut(Some(id));
    agents.input_probes.push(
        InputProbe::new(
            "drive:force",
            vec![(0.0, 1.0), (1.0, 1.0)],
            Interpolation::Step,
        )
        .unwrap(),
    );
    agents.controllers.push(Slot {
        active: true,
        agent: Box::new(Logger(log.clone(), "controller")),
    });
    agents.monitors.push(Slot {
        active: true,
        agent: Box::new(Logger(log.clone(), "monitor")),
    });
    agents.monitors.push(Slot {
        active: false,
        agent: Box::new(Logger(log.clone(), "inactive monitor")),
    });
    root.initialize().unwrap();
    log.lock().unwrap().clear();
    root.run_until(0.002).unwrap();
    let expected = [
        "preadvance",
        "set drive:force",
        "controller",
        "advance",
        "monitor",
    ];
    let log = log.lock().unwrap();
    assert_eq!(log.len(), 2 * expected.len(), "{log:?}");
    for (got, want) in log.iter().zip(expected.iter().cycle()) {
        assert_eq!(got, want, "{log:?}");
    }
}

/// Runs to 2 s with waypoints at 0.5 and 1.5 s, resets to each and runs again:
/// the states and the recordings are bit-identical, and the input probe's
/// property is back to its value before the probe's window.
#[test]
fn waypoint_resets_rerun_bit_identically() {
    let (mut root, id, _) = root_with_bouncer();
    let probe = OutputProbe::new(
        &["osc/mass:position", "osc/mass:velocity"],
        Some(0.05),
        0.0,
        2.0,
    )
    .unwrap();
    root.agents_mut(None).output_probes.push(probe);
    let push = InputProbe::new(
        "osc/drive:force",
        vec![(1.0, 0.0), (1.2, 30.0)],
        Interpolation::Linear,
    )
    .unwrap()
    .with_window(1.0, 1.2)
    .unwrap();
    root.agents_mut(None).input_probes.push(push);
    root.add_waypoint(0.5);
    root.add_waypoint(1.5);
    root.initialize().unwrap();
    root.run_until(2.0).unwrap();
    let first_state = root.model(id).save_state();
    let first_rows = root.agents(None).output_probes[0].rows().to_vec();
    assert_eq!(root.model(id).property("drive:force"), Some(30.0));

    for waypoint in [1.5, 0.5] {
        root.reset_to(waypoint).unwrap();
        let expected_force = if waypoint < 1.0 { 0.0 } else { 30.0 };
        assert_eq!(root.model(id).property("drive:force"), Some(expected_force));
        assert!(root.agents(None).output_probes[0].rows().last().unwrap().0 <= waypoint);
        root.run_until(2.0).unwrap();
        assert_eq!(
            root.model(id).save_state(),
            first_state,
            "from {waypoint} s"
        );
        assert_eq!(
            root.agents(None).output_probes[0].rows(),
            first_rows.as_slice()
        );
    }
    assert!(matches!(
        root.reset_to(0.7),
        Err(SchedulerError::NoWaypoint(_))
    ));
}

/// The probe's CSV has a row at every multiple of 0.1 s, and each row equals
/// the state a monitor saw at the end of the step that ended there.
#[test]
fn output_probe_csv_matches_the_state_at_its_update_times() {
    let (mut root, id, _) = root_with_bouncer();
    let steps = Arc::new(Mutex::new(Vec::new()));
    let agents = root.agents_mut(Some(id));
    agents
        .output_probes
        .push(OutputProbe::new(&["mass:position"], Some(0.1), 0.0, 1.0).unwrap());
    agents.monitors.push(Slot {
        active: true,
        agent: Box::new(StepRecorder(steps.clone())),
    });
    root.initialize().unwrap();
    root.run_until(1.0).unwrap();
    let mut csv = Vec::new();
    root.agents(Some(id)).output_probes[0]
        .write_csv(&mut csv)
        .unwrap();
    let text = String::from_utf8(csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("time,mass:position"));
    let rows: Vec<(f64, f64)> = lines
        .map(|line| {
            let (t, x) = line.split_once(',').unwrap();
            (t.parse().unwrap(), x.parse().unwrap())
        })
        .collect();
    // The initial state at 0 s, then every multiple of 0.1 s ends a step.
    assert_eq!(rows.len(), 11, "{text}");
    assert_eq!(rows[0], (0.0, 0.5));
    for (k, &(t, x)) in rows.iter().enumerate().skip(1) {
        assert!((t - 0.1 * k as f64).abs() < 1e-12, "row {k}: t = {t}");
        let step = steps.lock().unwrap().iter().find(|s| s.0 == t).copied();
        let (_, _, seen) = step.unwrap_or_else(|| panic!("no step ended at {t}"));
        assert_eq!(x, seen, "row at {t}");
    }
}

#[test]
fn agents_reaching_unknown_or_out_of_range_properties_stop_the_run() {
    let (mut root, _, _) = root_with_bouncer();
    root.agents_mut(None).input_probes.push(
        InputProbe::new(
            "osc/spring:stiffness",
            vec![(0.0, 2e4), (1.0, 2e4)],
            Interpolation::Step,
        )
        .unwrap(),
    );
    root.initialize().unwrap();
    let error = root.run_until(0.1).unwrap_err();
    assert_eq!(
        error.to_string(),
        "`spring:stiffness` = 20000 is outside its range [0, 10000]"
    );
    let (mut root, _, _) = root_with_bouncer();
    root.agents_mut(None)
        .output_probes
        .push(OutputProbe::new(&["nothing/here:x"], None, 0.0, 1.0).unwrap());
    // Found when the probe first records: at the start.
    assert_eq!(
        root.initialize().unwrap_err(),
        SchedulerError::Property(PropertyError::UnknownPath("nothing/here:x".into()))
    );
}

/// Gelsey's escapement under the root model: adaptive stepping carries it
/// through 31 s of impacts, an output probe records the escape wheel every
/// 0.1 s, the wheel only ever turns one way by whole teeth overall, and a reset
/// to a waypoint in the middle of the run repeats it bit for bit.
#[test]
fn the_escapement_runs_under_the_scheduler_and_reruns_from_a_waypoint() {
    use orchard_engine::mech::mechanism::{Mechanism, builtin};
    let escapement = Mechanism::from_toml(builtin("escapement").unwrap()).unwrap();
    let mut root = RootModel::new(0.05, 1e-10).unwrap();
    let id = root.add_model("escapement", Box::new(escapement));
    let probe = OutputProbe::new(&["escapement/parts/wheel:position"], Some(0.1), 0.0, 31.0);
    root.agents_mut(None).output_probes.push(probe.unwrap());
    root.add_waypoint(12.3);
    root.initialize().unwrap();
    root.run_until(31.0).unwrap();
    let first = root.model(id).save_state();
    let rows = root.agents(None).output_probes[0].rows().to_vec();
    assert_eq!(rows.len(), 311, "a row every 0.1 s from 0 to 31 s");
    // The wheel is driven one way: it never moves back by more than a recoil.
    let wheel: Vec<f64> = rows.iter().map(|r| r.1[0].to_degrees()).collect();
    let recoil = wheel.windows(2).map(|w| w[1] - w[0]).fold(0.0f64, f64::max);
    assert!(recoil < 1.0, "the wheel moved back by {recoil}°");
    let advance = wheel[0] - wheel[wheel.len() - 1];
    assert!(
        advance > 3.0 * 36.0,
        "the wheel advanced only {advance}° in 31 s"
    );

    root.reset_to(12.3).unwrap();
    root.run_until(31.0).unwrap();
    assert_eq!(root.model(id).save_state(), first);
    assert_eq!(root.agents(None).output_probes[0].rows(), rows.as_slice());
}

/// A root whose models are all of one type (as the worker holds a family's
/// mechanics) advances them, agents and all, exactly as a root of any
/// models, and hands each back as its own type, without a downcast.
#[test]
fn a_root_of_one_model_type_runs_the_same_and_hands_the_model_back_typed() {
    /// The root, the model's id and the rows its output probe recorded.
    type Run<M> = (RootModel<M>, ModelId, Vec<(f64, Vec<f64>)>);
    fn run<M: orchard_engine::mech::Simulated + ?Sized>(
        mut root: RootModel<M>,
        model: Box<M>,
    ) -> Run<M> {
        let id = root.add_model("osc", model);
        let probe = OutputProbe::new(&["mass:position"], Some(0.05), 0.0, 1.0).unwrap();
        root.agents_mut(Some(id)).output_probes.push(probe);
        let push = InputProbe::new(
            "drive:force",
            vec![(0.2, 0.0), (0.4, 30.0)],
            Interpolation::Linear,
        )
        .unwrap();
        root.agents_mut(Some(id)).input_probes.push(push);
        root.initialize().unwrap();
        root.run_until(1.0).unwrap();
        let rows = root.agents(Some(id)).output_probes[0].rows().to_vec();
        (root, id, rows)
    }
    let log = Arc::new(Mutex::new(Vec::new()));
    let (any, any_id, any_rows) = run(
        RootModel::new(0.01, 1e-9).unwrap(),
        Box::new(Bouncer::new(log.clone())),
    );
    let (typed, typed_id, typed_rows) = run(
        RootModel::<Bouncer>::of_models(0.01, 1e-9).unwrap(),
        Box::new(Bouncer::new(log)),
    );
    assert_eq!(typed_rows, any_rows);
    assert_eq!(typed_rows.len(), 21, "a row every 0.05 s from 0 to 1 s");
    assert!(typed_rows.iter().any(|(_, x)| x[0] < 0.2), "it moved");
    let bouncer: &Bouncer = typed.model(typed_id);
    assert_eq!(bouncer.force, 30.0);
    assert_eq!(
        ModelState(vec![bouncer.x, bouncer.v]),
        any.model(any_id).save_state()
    );
}
