//! Options of `orchard presets`.

/// Options of `orchard presets`.
#[derive(Debug, clap::Args)]
pub struct PresetsArgs {
    /// Instead of the list, print every property path of this preset (a name or
    /// a file) with its value: the paths `--set` and `--probe` take.
    #[arg(long, value_name = "PRESET")]
    pub paths: Option<String>,
}
