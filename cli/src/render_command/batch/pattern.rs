//! File-name patterns as a shell writes them: `*` stands for any run of
//! characters (none included), `?` for any one character.

/// Whether `text` holds a wildcard (`*` or `?`).
pub fn is_pattern(text: &str) -> bool {
    text.contains(['*', '?'])
}

/// Whether the whole of `name` matches `pattern`.
pub fn matches(pattern: &str, name: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().collect();
    let name: Vec<char> = name.chars().collect();
    // Where the last `*` was, and the character of `name` it is stretched to.
    let mut star: Option<(usize, usize)> = None;
    let (mut p, mut n) = (0, 0);
    while n < name.len() {
        match pattern.get(p) {
            Some('*') => {
                star = Some((p, n));
                p += 1;
            }
            Some(&c) if c == '?' || c == name[n] => {
                p += 1;
                n += 1;
            }
            _ => match star {
                // Let the last `*` take one more character, and go on.
                Some((star_p, star_n)) => {
                    star = Some((star_p, star_n + 1));
                    p = star_p + 1;
                    n = star_n + 1;
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stars_and_question_marks() {
        assert!(matches("*.mid", "song.mid"));
        assert!(matches("*.mid", ".mid"));
        assert!(!matches("*.mid", "song.midi"));
        assert!(matches("s?ng*.mid*", "song-2.midi"));
        assert!(matches("*a*b", "xaxxab"));
        assert!(!matches("*a*b", "xaxxa"));
        assert!(matches("song.mid", "song.mid"));
        assert!(!matches("?", ""));
        assert!(is_pattern("songs/*.mid"));
        assert!(!is_pattern("songs/a.mid"));
    }
}
