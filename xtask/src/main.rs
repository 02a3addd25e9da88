//! `cargo xtask bundle orchard --release`: builds the VST3 and CLAP bundles.

fn main() -> nice_plug_xtask::Result<()> {
    nice_plug_xtask::main()
}
