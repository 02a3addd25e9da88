//! Undo and redo: a stack of changes, each knowing how to go back and forth.
//! Consecutive changes of one slider drag merge into one step.

/// Steps kept for undo; the oldest are forgotten beyond this.
const DEPTH: usize = 500;

/// A change that can be undone: what was before and what came after.
#[derive(Debug, Clone, PartialEq)]
pub struct Step<T> {
    /// What was there before.
    pub before: T,
    /// What is there after.
    pub after: T,
    /// Steps with the same merge key, one right after another, are one step
    /// (a slider being dragged); `None` never merges.
    pub merge_key: Option<String>,
}

/// The undo and redo stacks.
#[derive(Debug, Clone)]
pub struct History<T> {
    undo: Vec<Step<T>>,
    redo: Vec<Step<T>>,
}

impl<T> Default for History<T> {
    fn default() -> Self {
        Self {
            undo: Vec::new(),
            redo: Vec::new(),
        }
    }
}

impl<T> History<T> {
    /// Records a change just made; redo is forgotten. A change with the same
    /// merge key as the last one extends it (keeping the first `before`).
    pub fn record(&mut self, step: Step<T>) {
        self.redo.clear();
        if let Some(last) = self.undo.last_mut()
            && step.merge_key.is_some()
            && last.merge_key == step.merge_key
        {
            last.after = step.after;
            return;
        }
        if self.undo.len() == DEPTH {
            self.undo.remove(0);
        }
        self.undo.push(step);
    }

    /// Ends merging: the next change is a step of its own (a drag ended).
    pub fn seal(&mut self) {
        if let Some(last) = self.undo.last_mut() {
            last.merge_key = None;
        }
    }

    /// The step to undo (it moves to redo); apply its `before`.
    pub fn undo(&mut self) -> Option<&Step<T>> {
        let step = self.undo.pop()?;
        self.redo.push(step);
        self.redo.last()
    }

    /// The step to redo (it moves back to undo); apply its `after`.
    pub fn redo(&mut self) -> Option<&Step<T>> {
        let mut step = self.redo.pop()?;
        step.merge_key = None;
        self.undo.push(step);
        self.undo.last()
    }

    /// Whether there is anything to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is anything to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Forgets everything (a preset was loaded).
    pub fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(before: i32, after: i32, key: Option<&str>) -> Step<i32> {
        Step {
            before,
            after,
            merge_key: key.map(String::from),
        }
    }

    #[test]
    fn a_drag_is_one_step_and_redo_is_forgotten_by_a_new_change() {
        let mut h = History::default();
        h.record(step(0, 1, Some("a")));
        h.record(step(1, 2, Some("a")));
        h.record(step(2, 3, Some("a")));
        h.seal();
        h.record(step(3, 4, Some("a")));
        assert_eq!(h.undo().map(|s| (s.before, s.after)), Some((3, 4)));
        assert_eq!(h.undo().map(|s| (s.before, s.after)), Some((0, 3)));
        assert!(!h.can_undo());
        assert_eq!(h.redo().map(|s| s.after), Some(3));
        h.record(step(3, 7, None));
        assert!(!h.can_redo());
        assert_eq!(h.undo().map(|s| s.before), Some(3));
    }
}
