//! Source text made fit to read for imports: comments left out, string and
//! character literals emptied, test-only modules left out, and the tokens
//! that matter.

/// `text` without comments (line, doc and nested block comments) and with
/// every string and character literal emptied; line breaks stay where they
/// were, so line numbers still hold. The test-only modules (the unit
/// tests) are left out.
pub(crate) fn strip(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied();
        if ch == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if c[i] == '\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
            out.push(' ');
        } else if let Some(end) = raw_string_end(&c, i, &out) {
            for &x in &c[i..end] {
                if x == '\n' {
                    out.push('\n');
                }
            }
            out.push_str("\"\"");
            i = end;
        } else if ch == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    i += 1;
                }
                if c.get(i) == Some(&'\n') {
                    out.push('\n');
                }
                i += 1;
            }
            out.push_str("\"\"");
            i += 1;
        } else if ch == '\'' && next == Some('\\') {
            // An escaped character literal: '\n', '\'', '\u{…}'.
            i += 3;
            while i < c.len() && c[i] != '\'' {
                i += 1;
            }
            out.push_str("' '");
            i += 1;
        } else if ch == '\'' && c.get(i + 2) == Some(&'\'') {
            out.push_str("' '");
            i += 3;
        } else {
            out.push(ch);
            i += 1;
        }
    }
    without_test_modules(&out)
}

/// Where the raw string starting at `i` (`r"…"`, `r#"…"#`, `br"…"`) ends,
/// if one starts there.
fn raw_string_end(c: &[char], i: usize, before: &str) -> Option<usize> {
    let after_ident = before
        .chars()
        .next_back()
        .is_some_and(|p| p.is_alphanumeric() || p == '_');
    if after_ident {
        return None;
    }
    let mut j = match (c[i], c.get(i + 1)) {
        ('r', _) => i + 1,
        ('b', Some('r')) => i + 2,
        _ => return None,
    };
    let mut hashes = 0;
    while c.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    if c.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < c.len() {
        if c[j] == '"' && (0..hashes).all(|k| c.get(j + 1 + k) == Some(&'#')) {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(c.len())
}
/// `code` without its test-only modules: each `mod` item (declared,
/// `mod x;`, or inline, `mod x { … }`) under a `#[cfg(test)]` or
/// `#[cfg(all(test, …))]` attribute, at any depth, is blanked, its line
/// breaks kept. `code` has no comments and no string contents left, so its
/// braces are the code's.
fn without_test_modules(code: &str) -> String {
    let mut c: Vec<char> = code.chars().collect();
    let mut from = 0;
    while let Some(at) = next_test_attribute(&c, from) {
        match test_module_end(&c, at) {
            Some(end) => {
                for x in &mut c[at..end] {
                    if *x != '\n' {
                        *x = ' ';
                    }
                }
                from = end;
            }
            None => from = at + 1,
        }
    }
    c.into_iter().collect()
}

/// Whether `c` holds `pattern` at `at`.
fn holds(c: &[char], at: usize, pattern: &str) -> bool {
    let n = pattern.chars().count();
    c.get(at..at + n)
        .is_some_and(|s| s.iter().copied().eq(pattern.chars()))
}

/// Where the next test-only attribute at or after `from` begins.
fn next_test_attribute(c: &[char], from: usize) -> Option<usize> {
    (from..c.len()).find(|&i| holds(c, i, "#[cfg(test)]") || holds(c, i, "#[cfg(all(test,"))
}

/// Just after the closing bracket that matches the opening one at `open`
/// (`[`, `(` or `{`), or the end of `c` if none does.
fn after_matching(c: &[char], open: usize) -> usize {
    let (up, down) = match c[open] {
        '[' => ('[', ']'),
        '(' => ('(', ')'),
        _ => ('{', '}'),
    };
    let mut depth = 0;
    for (i, &x) in c.iter().enumerate().skip(open) {
        if x == up {
            depth += 1;
        } else if x == down {
            depth -= 1;
            if depth == 0 {
                return i + 1;
            }
        }
    }
    c.len()
}

/// If the attribute at `at` (`#[…]`) is on a module, where the module's
/// item ends (after its `;` or its closing brace); further attributes and
/// a visibility may stand between.
fn test_module_end(c: &[char], at: usize) -> Option<usize> {
    let skip_space = |mut i: usize| {
        while c.get(i).is_some_and(|x| x.is_whitespace()) {
            i += 1;
        }
        i
    };
    let mut i = after_matching(c, at + 1);
    loop {
        i = skip_space(i);
        if holds(c, i, "#[") {
            i = after_matching(c, i + 1);
        } else {
            break;
        }
    }
    if holds(c, i, "pub") {
        i = skip_space(i + 3);
        if c.get(i) == Some(&'(') {
            i = skip_space(after_matching(c, i));
        }
    }
    let is_mod = holds(c, i, "mod") && c.get(i + 3).is_some_and(|x| x.is_whitespace());
    if !is_mod {
        return None;
    }
    let end = (i..c.len()).find(|&j| c[j] == ';' || c[j] == '{')?;
    Some(if c[end] == ';' {
        end + 1
    } else {
        after_matching(c, end)
    })
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    Ident(String),
    /// `::`
    Sep,
    Punct(char),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub(crate) tok: Tok,
    pub(crate) line: usize,
}

/// The tokens of stripped code that matter here: identifiers (and numbers),
/// `::` and single punctuation; lifetimes are dropped.
pub(crate) fn tokens(code: &str) -> Vec<Token> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let is_ident = |x: char| x.is_alphanumeric() || x == '_';
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if is_ident(ch) {
            let start = i;
            while i < c.len() && is_ident(c[i]) {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Ident(c[start..i].iter().collect()),
                line,
            });
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push(Token {
                tok: Tok::Sep,
                line,
            });
            i += 2;
        } else if ch == '\'' && c.get(i + 1).is_some_and(|&x| is_ident(x)) {
            // A lifetime or a label: not an identifier of its own.
            i += 1;
            while i < c.len() && is_ident(c[i]) {
                i += 1;
            }
        } else {
            out.push(Token {
                tok: Tok::Punct(ch),
                line,
            });
            i += 1;
        }
    }
    out
}
