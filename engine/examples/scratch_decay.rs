use orchard_engine::instrument::Preset;
use orchard_engine::rt::Synth;
fn fit(t: &[f64], y: &[f64]) -> f64 {
    let n = t.len() as f64; let mt = t.iter().sum::<f64>()/n; let my = y.iter().sum::<f64>()/n;
    let sxy: f64 = t.iter().zip(y).map(|(a,b)| (a-mt)*(b-my)).sum(); let sxx: f64 = t.iter().map(|a| (a-mt)*(a-mt)).sum();
    -60.0 / (sxy/sxx)
}
fn main() {
    let text = std::fs::read_to_string("presets/grand-piano.toml").unwrap();
    let args: Vec<String> = std::env::args().collect();
    let keys: Vec<u8> = args[1].split(',').map(|s| s.parse().unwrap()).collect();
    let dur: f64 = args[2].parse().unwrap();
    let mut preset = Preset::from_toml(&text).unwrap();
    for kv in args.iter().skip(3) { let (p, v) = kv.split_once('=').unwrap(); preset.set(p, v.parse().unwrap()).unwrap(); }
    let fs = 48000.0;
    for &key in &keys {
        let mut synth = Synth::new(&preset, fs).unwrap();
        synth.note_on(key, 80.0/127.0);
        let block = 2400;
        let (mut l, mut r) = (vec![0f32; block], vec![0f32; block]);
        let mut levels = vec![];
        for _ in 0..((dur*20.0) as usize) {
            synth.process(&mut l, &mut r);
            let e: f64 = l.iter().zip(&r).map(|(a,b)| ((*a as f64 + *b as f64)*0.5).powi(2)).sum::<f64>() / block as f64;
            levels.push(10.0*e.max(1e-30).log10());
        }
        let (pi, peak) = levels.iter().cloned().enumerate().fold((0, f64::MIN), |a, (i, v)| if v > a.1 {(i, v)} else {a});
        let below = |db: f64| (pi..levels.len()).find(|&i| levels[i] < peak - db).unwrap_or(levels.len());
        let k10 = below(10.0); let k15 = below(15.0); let k45 = below(45.0);
        let t: Vec<f64> = (0..levels.len()).map(|i| i as f64 * 0.05).collect();
        let early = fit(&t[pi..=k10.min(levels.len()-1)], &levels[pi..=k10.min(levels.len()-1)]);
        let late = if k45 > k15 + 3 { fit(&t[k15..k45], &levels[k15..k45]) } else { f64::NAN };
        println!("key {key}: early {early:.2} s late {late:.2} s  ratio {:.1}", late/early);
    }
}
