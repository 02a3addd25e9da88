use orchard_engine::instrument::Preset;
use orchard_engine::rt::Synth;
fn main() {
    let text = std::fs::read_to_string("presets/grand-piano.toml").unwrap();
    let args: Vec<String> = std::env::args().collect();
    let key: u8 = args[1].parse().unwrap();
    let mut preset = Preset::from_toml(&text).unwrap();
    for kv in args.iter().skip(2) { let (p, v) = kv.split_once('=').unwrap(); preset.set(p, v.parse().unwrap()).unwrap(); }
    let fs = 48000.0;
    let mut synth = Synth::new(&preset, fs).unwrap();
    synth.note_on(key, 0.7);
    let block = 960;
    let (mut l, mut r) = (vec![0f32; block], vec![0f32; block]);
    let mut line = String::new();
    for i in 0..100 {
        if i == 50 { synth.note_off(key); line += "| "; }
        synth.process(&mut l, &mut r);
        let e: f64 = l.iter().map(|a| (*a as f64).powi(2)).sum::<f64>() / block as f64;
        line += &format!("{:.0}/{:.0} ", 10.0*e.max(1e-30).log10(), 10.0*synth.string_energy_j(key).max(1e-30).log10());
    }
    println!("{line}");
    let mut top = 0.0; for k in 89..=108 { top += synth.string_energy_j(k); }
    println!("energy own {:.3e} top strings {:.3e}", synth.string_energy_j(key), top);
}
