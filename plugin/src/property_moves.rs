//! Controller movements of properties made edits of the instrument state,
//! off the audio thread: MIDI learn's second half, above [`crate::learn`]
//! since it edits the saved state (`OrchardParams`) of the sound the
//! parameters describe ([`crate::sound`]).

use orchard_engine::instrument::PropertyEdit;

use crate::learn::property_value;
use crate::params::OrchardParams;
use crate::sound::SoundSettings;

/// Turns the properties controllers moved since the last call into edits
/// of the instrument state (each property set, explicit, to the value its
/// controller's latest position gives over its declared range; an earlier
/// edit of the same path is replaced, as the editor's are). The plugin
/// rebuilds the instrument when it sees the state change. A path the
/// instrument lacks (bound for another instrument), or a value it refuses,
/// changes nothing. Runs off the audio thread (it locks and allocates).
pub fn apply_property_moves(params: &OrchardParams) {
    let moves = params.controllers.take_property_moves();
    if moves.is_empty() {
        return;
    }
    let settings = SoundSettings::from_params(params);
    params.update_edits(|edits| {
        let mut preset = settings.instrument_with(edits);
        let mut changed = false;
        for (path, position) in moves {
            let Some(info) = preset.property_info(&path) else {
                continue;
            };
            let value = property_value(&info, f64::from(position));
            if preset.get(&path) == Some(value) && preset.is_explicit(&path) == Some(true) {
                continue;
            }
            let edit = PropertyEdit::Set { path, value };
            if preset.apply(&edit).is_ok() {
                edits.retain(|e| e.path() != edit.path());
                edits.push(edit);
                changed = true;
            }
        }
        changed
    });
}
