//! `orchard render`: one file ([`one`]), or many ([`batch`]).

pub mod batch;
mod checks;
pub mod one;
mod passes;
mod preset;
mod score;
mod summary;

use crate::args::render::RenderArgs;

/// Runs `orchard render`: one file as [`one::render_one`], several as a
/// batch ([`batch::run`]).
pub fn run_render(args: &RenderArgs) -> Result<String, String> {
    if batch::is_batch(args) {
        batch::run(args)
    } else {
        one::render_one(args)
    }
}
