//! Script text as it is compiled: calls into the core written `game.f(a, b)` are compiled as
//! `f(game, a, b)`.
//!
//! Both are the same call in Rhai: a native function called in method style gets the value
//! before the dot as its first argument, by reference. But for a method-style call Rhai first
//! looks for a *script* method of that name on the value's type, typed and untyped, on every
//! call, and only then for the native function; in function style it looks once. Rules call the
//! core tens of thousands of times a game, nearly all in method style on `game`, and the extra
//! lookups cost about 3 % of a Last Victory game's instructions (`docs/performance.md`).
//!
//! The rewrite keeps every line and column where it was: `game.f(` and `f(game,` have the same
//! length, and `game.f()` becomes `f(game )`; an error in a core call now points at the start of
//! the call instead of at the name after `game.`. It is deliberately narrow. It leaves alone
//! strings (not the code inside `${...}`), characters and comments; a `game` that is a property
//! (`x.game.f(`) or written with spaces around the dot; calls whose name some script of the
//! ruleset defines as a function (in method style those bind `this`, a different call); and
//! Rhai's own keyword functions.

use std::collections::HashSet;

/// Names Rhai gives a meaning of its own in function style; never rewritten.
const KEYWORDS: &[&str] = &[
    "call",
    "curry",
    "Fn",
    "type_of",
    "print",
    "debug",
    "eval",
    "is_def_fn",
    "is_def_var",
    "is_shared",
];

/// The names of the functions the scripts define (`fn name(`), over every script of a ruleset.
#[must_use]
pub fn script_functions<'a>(texts: impl IntoIterator<Item = &'a str>) -> HashSet<String> {
    let mut names = HashSet::new();
    for text in texts {
        for at in code_positions(text, "fn") {
            let after = &text[at + "fn".len()..];
            let name = after.trim_start();
            // `fn name`, not `fnord` or `xfn`.
            if !starts_word(text, at) || name.len() == after.len() {
                continue;
            }
            let name = identifier(name);
            if !name.is_empty() {
                names.insert(name.to_string());
            }
        }
    }
    names
}

/// `text` with every `game.f(` call of a core function rewritten as `f(game,` (see the module
/// documentation); `defined` holds the names the scripts define themselves.
#[must_use]
pub fn game_calls(text: &str, defined: &HashSet<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for at in code_positions(text, "game.") {
        if at < copied {
            continue;
        }
        let Some((len, replacement)) = rewrite_at(text, at, defined) else {
            continue;
        };
        out.push_str(&text[copied..at]);
        out.push_str(&replacement);
        copied = at + len;
    }
    out.push_str(&text[copied..]);
    out
}

/// The call starting at `at`, if it is one to rewrite: the length it spans and its new text.
fn rewrite_at(text: &str, at: usize, defined: &HashSet<String>) -> Option<(usize, String)> {
    let rest = text[at..].strip_prefix("game.")?;
    if !starts_word(text, at) || after_dot(text, at) {
        return None;
    }
    let name = identifier(rest);
    if name.is_empty()
        || name.starts_with(|c: char| c.is_ascii_digit())
        || defined.contains(name)
        || KEYWORDS.contains(&name)
    {
        return None;
    }
    let args = rest[name.len()..].strip_prefix('(')?;
    let head = "game.".len() + name.len() + 1;
    if args.starts_with(')') {
        return Some((head + 1, format!("{name}(game )")));
    }
    // `game.f( )` would need a trailing comma: left as written.
    if args.starts_with(char::is_whitespace) && args.trim_start().starts_with(')') {
        return None;
    }
    Some((head, format!("{name}(game,")))
}

/// Whether a word starts at `at` (no identifier character just before it).
fn starts_word(text: &str, at: usize) -> bool {
    !text[..at]
        .chars()
        .next_back()
        .is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// Whether the word at `at` follows a dot or a namespace separator (a property, `x.game`, or a
/// module path), spaces allowed.
fn after_dot(text: &str, at: usize) -> bool {
    let before = text[..at].trim_end();
    before.ends_with('.') || before.ends_with("::")
}

/// The identifier at the start of `s` (empty if none).
fn identifier(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The offsets in `text` where `word` starts inside script code: not inside a string, a
/// character or a comment (the code of a back-tick string's `${...}` counts as code).
fn code_positions(text: &str, word: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for (from, to) in code_spans(text) {
        let span = &text[from..to];
        out.extend(span.match_indices(word).map(|(i, _)| from + i));
    }
    out
}

/// The stretches of `text` that are script code, as byte ranges, in order.
fn code_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    scan_code(text.as_bytes(), 0, false, &mut spans);
    spans
}

/// Scans code from `i`, adding its stretches to `spans`, and returns where it ends: the end of
/// the text or, with `interpolation`, just past the `}` that closes a `${...}`.
fn scan_code(
    bytes: &[u8],
    mut i: usize,
    interpolation: bool,
    spans: &mut Vec<(usize, usize)>,
) -> usize {
    let mut start = i;
    let mut depth = 0_usize;
    while i < bytes.len() {
        let end = match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => bytes[i..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(bytes.len(), |n| i + n),
            b'/' if bytes.get(i + 1) == Some(&b'*') => block_comment_end(bytes, i),
            b'"' | b'\'' => quoted_end(bytes, i),
            b'`' => {
                spans.push((start, i));
                backtick_end(bytes, i, spans)
            }
            b'{' => {
                depth += 1;
                i += 1;
                continue;
            }
            b'}' if interpolation && depth == 0 => {
                spans.push((start, i));
                return i + 1;
            }
            b'}' => {
                depth = depth.saturating_sub(1);
                i += 1;
                continue;
            }
            _ => {
                i += 1;
                continue;
            }
        };
        if bytes[i] != b'`' {
            spans.push((start, i));
        }
        start = end;
        i = end;
    }
    spans.push((start.min(bytes.len()), bytes.len()));
    bytes.len()
}

/// The offset just past a back-tick string opening at `i`; the code of its `${...}`
/// interpolations goes into `spans`. (A doubled back-tick stands for one, inside.)
fn backtick_end(bytes: &[u8], i: usize, spans: &mut Vec<(usize, usize)>) -> usize {
    let mut j = i + 1;
    while j < bytes.len() {
        match bytes[j] {
            b'`' if bytes.get(j + 1) == Some(&b'`') => j += 2,
            b'`' => return j + 1,
            b'$' if bytes.get(j + 1) == Some(&b'{') => j = scan_code(bytes, j + 2, true, spans),
            _ => j += 1,
        }
    }
    bytes.len()
}

/// The offset just past a `/* */` comment opening at `i` (Rhai nests them).
fn block_comment_end(bytes: &[u8], mut i: usize) -> usize {
    let mut depth = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"/*") {
            depth += 1;
            i += 2;
        } else if bytes[i..].starts_with(b"*/") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    bytes.len()
}

/// The offset just past a string or character literal opening at `i` (backslash escapes).
fn quoted_end(bytes: &[u8], i: usize) -> usize {
    let quote = bytes[i];
    let mut j = i + 1;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => j += 2,
            c if c == quote => return j + 1,
            _ => j += 1,
        }
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewrite(text: &str, defined: &[&str]) -> String {
        let defined = defined.iter().map(|s| (*s).to_string()).collect();
        game_calls(text, &defined)
    }

    #[test]
    fn core_calls_become_function_calls_in_the_same_columns() {
        let text = "let h = game.location(u);\nif game.turn_over() { game.event(\"x\", h.len()) }\nlet s = `${game.name(u)} at ${ #{a: game.at(\"}\")}.a }`;";
        let out = rewrite(text, &[]);
        assert_eq!(
            out,
            "let h = location(game,u);\nif turn_over(game ) { event(game,\"x\", h.len()) }\nlet s = `${name(game,u)} at ${ #{a: at(game,\"}\")}.a }`;"
        );
        // Every line keeps its length, so every later token keeps its column.
        let lens = |t: &str| t.lines().map(str::len).collect::<Vec<_>>();
        assert_eq!(lens(&out), lens(text));
    }

    #[test]
    fn strings_comments_properties_and_script_methods_are_left_alone() {
        let text = concat!(
            "// game.a(1)\n",
            "/* game.b(2) /* nested game.c() */ game.d() */\n",
            "let s = \"game.e(3) \\\" game.f(4)\";\n",
            "let t = `x ${ \"}\" + g.g(5) } game.h(6)`;\n",
            "let c = 'g';\n",
            "x.game.i(7); ngame.j(8); game . k(9); game.k( );\n",
            "game.mine(10); game.type_of();\n",
            "fn mine() { this }\n",
        );
        let out = rewrite(text, &["mine"]);
        assert_eq!(out, text, "nothing here is a core call to rewrite");
    }

    #[test]
    fn script_function_names_are_gathered_from_code_only() {
        let names = script_functions([
            "fn alpha(game) {}\nprivate fn beta(x) {}\n// fn gamma()\n",
            "let s = \"fn delta()\"; fnord(); fn  epsilon(a, b) {}",
        ]);
        let mut names: Vec<_> = names.into_iter().collect();
        names.sort();
        assert_eq!(names, ["alpha", "beta", "epsilon"]);
    }

    #[test]
    fn rewritten_scripts_compute_what_the_originals_do() {
        let mut engine = rhai::Engine::new();
        engine.register_fn("twice", |x: &mut i64, y: i64| *x * 2 + y);
        engine.register_fn("zero", |_: &mut i64| 0_i64);
        let text = "fn run(game) { game.twice(1) + game.zero() + here(game) }\nfn here(game) { game.twice(game.zero()) }";
        let defined = script_functions([text]);
        let out = game_calls(text, &defined);
        assert_ne!(out, text);
        let run = |src: &str| -> i64 {
            let ast = engine.compile(src).unwrap();
            engine
                .call_fn(&mut rhai::Scope::new(), &ast, "run", (5_i64,))
                .unwrap()
        };
        assert_eq!(run(&out), run(text));
        assert_eq!(run(text), 11 + 10);
    }
}
