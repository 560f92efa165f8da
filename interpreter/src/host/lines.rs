//! Script steps per line (`muster play --profile-lines`): where inside a slow function the
//! time goes.
//!
//! Rhai's debugging hooks stop at every statement and expression step; counting the stops per
//! (function, line) gives a profile that is the same on every run and every machine, like the
//! operation counts of `--profile`. The hooks slow every game a few per cent merely by being
//! compiled in, so they come with the `line-profile` cargo feature, and a build without it
//! says how to get one ([`available`]).
//!
//! Counts are kept per thread from the moment an engine is set counting ([`count_lines`]);
//! [`take`] hands them over and starts again.

use rhai::Engine;
#[cfg(feature = "line-profile")]
use rhai::ImmutableString;

/// The steps counted on one line of a script function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineCount {
    /// The script function the line belongs to (`""` at a script's top level).
    pub function: String,
    /// The line in the function's script file (1-based).
    pub line: usize,
    /// Statement and expression steps on the line, calls into the core included.
    pub steps: u64,
}

/// Whether this build can count steps per line (the `line-profile` feature).
#[must_use]
pub const fn available() -> bool {
    cfg!(feature = "line-profile")
}

/// What to do for a build that cannot count lines.
pub const UNAVAILABLE: &str = "this muster was built without line profiling; build it with \
    `cargo build --release --features line-profile` (or `cargo run --release --features \
    line-profile -- play ...`)";

#[cfg(feature = "line-profile")]
type Counts = std::collections::HashMap<(ImmutableString, usize), u64>;

#[cfg(feature = "line-profile")]
thread_local! {
    static COUNTS: std::cell::RefCell<Counts> = std::cell::RefCell::new(Counts::new());
}

/// Makes `engine` count the steps it takes per script line on this thread. Returns whether it
/// can ([`available`]); without the feature the engine is left as it was.
pub fn count_lines(engine: &mut Engine) -> bool {
    #[cfg(feature = "line-profile")]
    {
        use rhai::debugger::DebuggerCommand;
        #[allow(deprecated)] // volatile, not deprecated (Rhai's own note)
        engine.register_debugger(
            |_, debugger| debugger,
            |ctx, _event, _node, _source, pos| {
                // The innermost call names the function; merged scripts share one source name.
                let function = ctx
                    .debugger()
                    .and_then(|d| d.call_stack().last())
                    .map(|f| f.fn_name.clone())
                    .unwrap_or_default();
                // Stops without a place (the start and end of a run) are no line's.
                if let Some(line) = pos.line() {
                    COUNTS.with(|c| *c.borrow_mut().entry((function, line)).or_default() += 1);
                }
                Ok(DebuggerCommand::StepInto)
            },
        );
        true
    }
    #[cfg(not(feature = "line-profile"))]
    {
        let _ = engine;
        false
    }
}

/// The lines counted on this thread so far, most steps first (ties by function and line), and
/// a fresh start.
#[must_use]
pub fn take() -> Vec<LineCount> {
    #[cfg(feature = "line-profile")]
    {
        let counts = COUNTS.with(|c| std::mem::take(&mut *c.borrow_mut()));
        let mut out: Vec<LineCount> = counts
            .into_iter()
            .map(|((function, line), steps)| LineCount {
                function: function.to_string(),
                line,
                steps,
            })
            .collect();
        out.sort_by(|a, b| {
            b.steps
                .cmp(&a.steps)
                .then_with(|| a.function.cmp(&b.function))
                .then(a.line.cmp(&b.line))
        });
        out
    }
    #[cfg(not(feature = "line-profile"))]
    Vec::new()
}

#[cfg(all(test, feature = "line-profile"))]
mod tests {
    use super::*;

    #[test]
    fn steps_are_counted_per_function_and_line() {
        let mut engine = Engine::new();
        assert!(count_lines(&mut engine));
        let ast = engine
            .compile("fn twice(x) {\n  let y = x;\n  y * 2\n}\nfn run() {\n  let t = 0;\n  for i in 0..3 { t += twice(i); }\n  t\n}")
            .expect("compiles");
        let steps = |counts: &[LineCount], f: &str, l: usize| {
            counts
                .iter()
                .find(|c| c.function == f && c.line == l)
                .map_or(0, |c| c.steps)
        };
        let _ = take();
        let one: i64 = engine
            .call_fn(&mut rhai::Scope::new(), &ast, "twice", (1_i64,))
            .expect("runs");
        assert_eq!(one, 2);
        let once = take();
        let r: i64 = engine
            .call_fn(&mut rhai::Scope::new(), &ast, "run", ())
            .expect("runs");
        assert_eq!(r, 6);
        let thrice = take();
        // Three calls take three times the steps of one on each line of `twice`.
        for line in [2, 3] {
            assert!(steps(&once, "twice", line) > 0);
            assert_eq!(
                steps(&thrice, "twice", line),
                3 * steps(&once, "twice", line)
            );
        }
        assert!(steps(&thrice, "run", 7) > steps(&thrice, "run", 6));
        assert!(thrice.windows(2).all(|w| w[0].steps >= w[1].steps));
        assert!(take().is_empty());
    }
}
