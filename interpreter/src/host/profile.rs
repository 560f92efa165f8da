//! Whole-ruleset profiling: every script function that takes the game is timed as a section of
//! its own (`muster play --profile`), without editing the scripts.
//!
//! Rhai has no hook on function entry, so the profile is made in the script text before it is
//! compiled: each top-level `fn name(game, ...) {` is renamed `name__profiled`, and a wrapper
//! of the old name, appended at the end of the file, opens the section, calls the renamed body
//! and closes the section. Appending keeps every line of the original where it was, so errors
//! still point at the right line. A function that uses `this` (a method) is called as one.
//!
//! The transform is textual and deliberately narrow: it touches only headers that start a line,
//! take `game` first and open their body on the same line. A file it cannot rewrite cleanly
//! (the result does not compile) is loaded as written; see `CompiledRuleset::load_profiled`.

/// The suffix given to a profiled function's renamed body.
pub const BODY_SUFFIX: &str = "__profiled";

/// One function header found in a script.
#[derive(Debug, PartialEq)]
struct Header {
    /// Byte offset of the function name.
    name_at: usize,
    name: String,
    /// The parameter list as written, without the parentheses.
    params: String,
    /// Whether the body (up to the next header) uses `this`.
    method: bool,
}

/// The script text with every function that takes `game` first wrapped in a timed section
/// named after it. Text without such functions comes back unchanged.
#[must_use]
pub fn wrap_functions(text: &str) -> String {
    let headers = headers(text);
    if headers.is_empty() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() * 2);
    let mut from = 0;
    for h in &headers {
        let end = h.name_at + h.name.len();
        out.push_str(&text[from..end]);
        out.push_str(BODY_SUFFIX);
        from = end;
    }
    out.push_str(&text[from..]);
    out.push_str("\n\n// Timed wrappers added for `muster play --profile`.\n");
    for h in &headers {
        out.push_str(&wrapper(h));
    }
    out
}

/// The wrapper of one function: a section around a call of its renamed body.
fn wrapper(h: &Header) -> String {
    let args: Vec<&str> = h
        .params
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let call = format!("{}{BODY_SUFFIX}({})", h.name, args.join(", "));
    let call = if h.method {
        format!("this.{call}")
    } else {
        call
    };
    format!(
        "fn {name}({params}) {{ game.timer(\"{name}\"); let result = {call}; game.timer_end(\"{name}\"); result }}\n",
        name = h.name,
        params = h.params,
    )
}

/// The headers to wrap, in the order of the text.
fn headers(text: &str) -> Vec<Header> {
    let mut found = Vec::new();
    // Where every top-level function starts, wrapped or not: a body ends where the next begins.
    let mut starts = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with("fn ") || line.starts_with("private fn ") {
            starts.push(offset);
        }
        if let Some(h) = header(line, offset) {
            found.push(h);
        }
        offset += line.len();
    }
    // Whether each body uses `this`: look from its header to the next function's. Stopping at
    // the next *wrapped* header instead would count a `this` in an unwrapped helper between
    // them (one without `game`) against the function before it.
    for h in &mut found {
        let end = starts
            .iter()
            .copied()
            .find(|&s| s > h.name_at)
            .unwrap_or(text.len());
        h.method = uses_this(&text[h.name_at..end]);
    }
    found
}

/// A wrappable header on this line: `fn name(game, ...) {` (or `private fn`) at its start.
fn header(line: &str, offset: usize) -> Option<Header> {
    let rest = line
        .strip_prefix("private fn ")
        .or_else(|| line.strip_prefix("fn "))?;
    let name_at = offset + (line.len() - rest.len());
    let open = rest.find('(')?;
    let name = &rest[..open];
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let close = rest[open..].find(')')? + open;
    let params = &rest[open + 1..close];
    let first = params.split(',').next().unwrap_or("").trim();
    let after = rest[close + 1..].trim_start();
    if first != "game" || !after.starts_with('{') {
        return None;
    }
    Some(Header {
        name_at,
        name: name.to_string(),
        params: params.to_string(),
        method: false,
    })
}

/// Whether code uses `this` as a word outside comments and string literals.
fn uses_this(code: &str) -> bool {
    code.lines().any(|line| {
        let code = without_strings(line.split("//").next().unwrap_or(""));
        code.match_indices("this").any(|(i, _)| {
            let before = code[..i].chars().next_back();
            let after = code[i + 4..].chars().next();
            let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
            !word(before) && !word(after)
        })
    })
}

/// A line with the insides of its string literals blanked out.
fn without_strings(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in line.chars() {
        if in_string {
            match (escaped, c) {
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => escaped = false,
            }
            out.push(if in_string { ' ' } else { c });
        } else {
            in_string = c == '"';
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_taking_the_game_are_wrapped_and_keep_their_lines() {
        let text = "// rules\nfn turn(game, side) {\n    step(game)\n}\n\nfn enemy(side) { side }\nprivate fn step(game) { 1 }\n";
        let out = wrap_functions(text);
        // The original lines are where they were, with the bodies renamed.
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[1], "fn turn__profiled(game, side) {");
        assert_eq!(lines[2], "    step(game)");
        assert_eq!(lines[5], "fn enemy(side) { side }");
        assert_eq!(lines[6], "private fn step__profiled(game) { 1 }");
        assert!(out.contains("fn turn(game, side) { game.timer(\"turn\"); let result = turn__profiled(game, side); game.timer_end(\"turn\"); result }"));
        assert!(out
            .contains("fn step(game) { game.timer(\"step\"); let result = step__profiled(game);"));
        assert!(!out.contains("fn enemy__profiled"));
    }

    #[test]
    fn methods_are_called_as_methods() {
        let text = "fn move_one(game, u) {\n    this.moved += 1; // not `thistle`\n}\nfn other(game) { thistle(game, \"this \\\" this\") }\n";
        let out = wrap_functions(text);
        assert!(
            out.contains("let result = this.move_one__profiled(game, u);"),
            "{out}"
        );
        assert!(out.contains("let result = other__profiled(game);"), "{out}");
    }

    #[test]
    fn a_method_without_the_game_does_not_make_the_function_before_it_a_method() {
        // `pick` is not wrapped (no `game`), so the next wrapped header is `other`; the `this`
        // in `pick` belongs to `pick`, not to `choose`.
        let text = "fn choose(game, options) {\n    options.pick()\n}\nfn pick() { this.len() }\nfn other(game) { 1 }\n";
        let out = wrap_functions(text);
        assert!(
            out.contains("let result = choose__profiled(game, options);"),
            "{out}"
        );
        assert!(!out.contains("this.choose__profiled"), "{out}");
    }

    #[test]
    fn headers_it_cannot_read_are_left_alone() {
        // The body opens on the next line; `game` is not first; a nested fn is indented.
        let text = "fn a(game)\n{ 1 }\nfn b(side, game) { 2 }\n    fn c(game) { 3 }\n";
        assert_eq!(wrap_functions(text), text);
    }

    #[test]
    fn wrapped_scripts_compile() {
        let text = "fn twice(game, x) { once(game, x) + once(game, x) }\nfn once(game, x) { x }\n";
        let engine = rhai::Engine::new();
        let out = wrap_functions(text);
        assert!(engine.compile(&out).is_ok(), "{out}");
    }
}
