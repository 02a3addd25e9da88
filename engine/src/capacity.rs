//! Copies between preallocated buffers, for code that must not allocate (the
//! audio thread, and the worker stepped inline with it).

/// Replaces `to`'s contents with as many of `from`'s (from the start) as `to`
/// has capacity for.
///
/// Allocates nothing.
pub(crate) fn copy_within_capacity<T: Copy>(to: &mut Vec<T>, from: &[T]) {
    to.clear();
    let room = to.capacity().min(from.len());
    to.extend_from_slice(&from[..room]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_what_fits_without_growing() {
        let mut to = Vec::with_capacity(3);
        to.push(9);
        copy_within_capacity(&mut to, &[1, 2, 3, 4]);
        assert_eq!((to.as_slice(), to.capacity()), (&[1, 2, 3][..], 3));
        copy_within_capacity(&mut to, &[5]);
        assert_eq!(to, [5]);
    }
}
