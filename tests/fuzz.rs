//! The seeded mutation test (issue 17): every content file a modder edits is mutated (byte
//! flips, deletions, duplicated spans, extreme numbers, unknown ids, truncation), then `check`
//! runs on it and, when it finds no problem, a short game (set-up, one turn, the victory check).
//! Bad content must give an error, never a panic, a hang or a runaway allocation.
//!
//! Each case is drawn from the seed and its own number alone, so any case can be run again by
//! itself. `docs/fuzzing.md` has the environment variables and the long run. Below the
//! harness stand the regression tests for what it found.

use muster_interpreter::alloc::Mimalloc;
use muster_interpreter::game::{Game, GameOptions};
use muster_interpreter::host::compiled::CompiledRuleset;
use muster_interpreter::scenario::Scenario;
use muster_interpreter::tools::check::check_path;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::fmt::Write as _;
use std::io::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------------------
// Bounded memory: the test binary's allocator refuses what no content file should need.

/// The largest single allocation a case may make.
const MAX_ONE: usize = 1 << 30;
/// The most memory the whole test binary may hold at once.
const MAX_LIVE: usize = 4 << 30;

/// The command line's allocator (mimalloc), counting live bytes and refusing allocations past the caps. A refusal
/// makes Rust abort the process ("memory allocation of N bytes failed"), which no
/// `catch_unwind` can hide, so the allocator first names the case that asked.
struct Capped;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static SEED: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// The case the current thread runs (`u64::MAX` outside a case). A `const` cell without a
    /// destructor: reading it never allocates, so the allocator may read it.
    static CASE: Cell<u64> = const { Cell::new(u64::MAX) };
    /// The place of the last panic on this thread, kept by the panic hook (see `quiet_panics`).
    static PANIC_AT: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    /// Script operations the current case's game may still run (see `run_case`).
    static BUDGET: Cell<u64> = const { Cell::new(0) };
    /// Whether this thread is a fuzz worker, whose panics are caught and reported by the harness.
    static WORKER: Cell<bool> = const { Cell::new(false) };
}

/// A fixed buffer to format into without allocating (inside the allocator).
struct StackText {
    buf: [u8; 320],
    len: usize,
}

impl std::fmt::Write for StackText {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let n = s.len().min(self.buf.len() - self.len);
        self.buf[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
        self.len += n;
        Ok(())
    }
}

fn refuse(size: usize) -> bool {
    let live = LIVE.load(Ordering::Relaxed);
    if size <= MAX_ONE && live.saturating_add(size) <= MAX_LIVE {
        return false;
    }
    let mut t = StackText {
        buf: [0; 320],
        len: 0,
    };
    let case = CASE.with(Cell::get);
    let _ = write!(
        t,
        "\nfuzz: refused an allocation of {size} bytes with {live} bytes live (caps: {MAX_ONE} in one, {MAX_LIVE} in all)"
    );
    if case != u64::MAX {
        let seed = SEED.load(Ordering::Relaxed);
        let _ = write!(
            t,
            " in case {case}: MUSTER_FUZZ_SEED={seed} MUSTER_FUZZ_CASE={case} cargo test --test fuzz -- --nocapture"
        );
    }
    let _ = t.write_str("\n");
    let _ = std::io::stderr().write_all(&t.buf[..t.len]);
    true
}

/// A new block from `alloc`, unless the caps refuse it, counted as live.
fn counted(layout: Layout, alloc: impl FnOnce() -> *mut u8) -> *mut u8 {
    if refuse(layout.size()) {
        return std::ptr::null_mut();
    }
    let p = alloc();
    if !p.is_null() {
        LIVE.fetch_add(layout.size(), Ordering::Relaxed);
    }
    p
}

// The one `unsafe` of the tests: a global allocator must be an `unsafe impl`. Each method
// forwards to `Mimalloc` with the caller's own layout, so `Mimalloc`'s contract is the caller's.
unsafe impl GlobalAlloc for Capped {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        counted(layout, || Mimalloc.alloc(layout))
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        counted(layout, || Mimalloc.alloc_zeroed(layout))
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        Mimalloc.dealloc(ptr, layout);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() && refuse(new_size - layout.size()) {
            return std::ptr::null_mut();
        }
        if new_size > MAX_ONE && refuse(new_size) {
            return std::ptr::null_mut();
        }
        let p = Mimalloc.realloc(ptr, layout, new_size);
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            LIVE.fetch_add(new_size, Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Capped = Capped;

// ---------------------------------------------------------------------------------------------
// The content and its mutations.

/// Every bundled file a modder edits, as it is in the repository.
struct Content {
    /// The repository.
    root: PathBuf,
    /// Paths relative to `root`, sorted, so a case number picks the same file everywhere.
    files: Vec<PathBuf>,
    /// Each file's bytes.
    originals: Vec<Vec<u8>>,
    /// Every quoted string of every file: ids and names to put in the wrong place.
    strings: Vec<String>,
}

/// The folders whose files are content (maps and the demo included).
const CONTENT_DIRS: [&str; 4] = ["rulesets", "tables", "scenarios", "tests/demo"];

impl Content {
    fn load() -> Content {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        for dir in CONTENT_DIRS {
            walk(&root, Path::new(dir), &mut files);
        }
        files.retain(|p| p.extension().is_some_and(|e| e == "ron" || e == "rhai"));
        files.sort();
        let originals: Vec<Vec<u8>> = files
            .iter()
            .map(|f| std::fs::read(root.join(f)).unwrap())
            .collect();
        let mut strings: Vec<String> = originals
            .iter()
            .flat_map(|b| quoted_spans(b).into_iter().map(move |(s, e)| (b, s, e)))
            .map(|(b, s, e)| String::from_utf8_lossy(&b[s..e]).to_string())
            .collect();
        strings.sort();
        strings.dedup();
        Content {
            root,
            files,
            originals,
            strings,
        }
    }
}

fn walk(root: &Path, rel: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(root.join(rel)) else {
        return;
    };
    for e in entries.flatten() {
        let rel = rel.join(e.file_name());
        if e.path().is_dir() {
            walk(root, &rel, out);
        } else {
            out.push(rel);
        }
    }
}

/// The byte spans of number literals: digits (with a fraction or exponent) not glued to a
/// word on their left (`SK1`, `d6`), with a leading minus sign.
fn number_spans(b: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let glued = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if b[i].is_ascii_digit() && !glued {
            let start = if i > 0 && b[i - 1] == b'-' { i - 1 } else { i };
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'.' || b[j] == b'e') {
                j += 1;
            }
            out.push((start, j));
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// The byte spans of the insides of double-quoted strings on one line.
fn quoted_spans(b: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut open: Option<usize> = None;
    for (i, &c) in b.iter().enumerate() {
        match (c, open) {
            (b'"', None) => open = Some(i + 1),
            (b'"', Some(s)) => {
                out.push((s, i));
                open = None;
            }
            (b'\n', Some(_)) => open = None,
            _ => {}
        }
    }
    out
}

/// Extreme numbers, in the forms RON and Rhai read (and some they do not).
const EXTREMES: [&str; 14] = [
    "0",
    "-1",
    "2147483647",
    "2147483648",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551616",
    "1e308",
    "-1e308",
    "NaN",
    "inf",
    "-inf",
    "123456789012345678901234567890",
];

/// Characters that matter to RON and Rhai, for byte flips that keep a file readable.
const SYNTAX: &[u8] = b"()[]{}<>\",:;-+*/=!|&.#_ 0123456789abcdefxyzABCDEF\n";

/// One case: which file, how it was mutated, and the mutated bytes.
struct Plan {
    case: u64,
    file: usize,
    bytes: Vec<u8>,
    what: Vec<String>,
    game_seed: u64,
    /// For a Sedgwick file: which of the three scenarios to play.
    pick: u64,
    /// Script operations per call into the scripts in the short game.
    budget: u64,
}

struct Rng(ChaCha8Rng);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        (self.0.next_u64() % n.max(1) as u64) as usize
    }
    /// A span length, mostly short.
    fn len(&mut self, max: usize) -> usize {
        let cap = [4, 16, 64, 512][self.below(4)];
        1 + self.below(cap.min(max.max(1)))
    }
}

fn place(b: &[u8], at: usize) -> String {
    let before = &b[..at.min(b.len())];
    let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
    let col = at
        - before
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |p| p + 1)
        + 1;
    format!("{line}:{col}")
}

fn shown(b: &[u8]) -> String {
    let s = String::from_utf8_lossy(b);
    let s: String = s.chars().take(40).collect();
    format!("{s:?}")
}

impl Plan {
    fn new(seed: u64, case: u64, content: &Content) -> Plan {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(case);
        let mut rng = Rng(rng);
        let file = rng.below(content.files.len());
        let mut b = content.originals[file].clone();
        let mut what = Vec::new();
        // Mostly one mutation; now and then a few on top of each other.
        let count = if rng.below(4) == 0 {
            2 + rng.below(3)
        } else {
            1
        };
        for _ in 0..count {
            what.push(mutate(&mut b, &mut rng, content));
        }
        Plan {
            case,
            file,
            bytes: b,
            what,
            game_seed: rng.0.next_u64() % 1000,
            pick: rng.0.next_u64(),
            budget: env_u64("MUSTER_FUZZ_OPS", 50_000),
        }
    }

    fn describe(&self, content: &Content) -> String {
        format!(
            "case {} on {}: {}",
            self.case,
            content.files[self.file].display(),
            self.what.join("; then ")
        )
    }
}

/// Applies one mutation to `b` and says what it did.
fn mutate(b: &mut Vec<u8>, rng: &mut Rng, content: &Content) -> String {
    if b.is_empty() {
        b.extend_from_slice(b"(");
        return "the file was empty: wrote `(`".into();
    }
    match rng.below(7) {
        0 => {
            let at = rng.below(b.len());
            let old = b[at];
            // Mostly a character that means something to the parsers; now and then any byte,
            // which may make the file unreadable as UTF-8.
            b[at] = if rng.below(5) == 0 {
                old ^ (1 << rng.below(8))
            } else {
                SYNTAX[rng.below(SYNTAX.len())]
            };
            format!("byte {at} ({}) {old:#04x} -> {:#04x}", place(b, at), b[at])
        }
        1 => {
            let at = rng.below(b.len());
            let n = rng.len(b.len() - at);
            let gone: Vec<u8> = b.drain(at..at + n).collect();
            format!(
                "delete {n} bytes at {at} ({}): {}",
                place(b, at),
                shown(&gone)
            )
        }
        2 => {
            let from = rng.below(b.len());
            let n = rng.len(b.len() - from);
            let span = b[from..from + n].to_vec();
            let to = if rng.below(2) == 0 {
                from + n
            } else {
                rng.below(b.len() + 1)
            };
            let times = if rng.below(8) == 0 { 50 } else { 1 };
            for _ in 0..times {
                b.splice(to..to, span.iter().copied());
            }
            format!(
                "duplicate {n} bytes from {from} ({}) {times}x at {to} ({}): {}",
                place(b, from),
                place(b, to),
                shown(&span)
            )
        }
        3 | 4 => {
            let spans = number_spans(b);
            if spans.is_empty() {
                return mutate(b, rng, content);
            }
            let (s, e) = spans[rng.below(spans.len())];
            let new = EXTREMES[rng.below(EXTREMES.len())];
            let old = shown(&b[s..e]);
            b.splice(s..e, new.bytes());
            format!("number {old} at {} -> {new}", place(b, s))
        }
        5 => {
            let spans = quoted_spans(b);
            if spans.is_empty() {
                return mutate(b, rng, content);
            }
            let (s, e) = spans[rng.below(spans.len())];
            let new = match rng.below(4) {
                0 => content.strings[rng.below(content.strings.len())].clone(),
                1 => String::new(),
                2 => {
                    // A typo: one character of the old string changed.
                    let mut t = b[s..e].to_vec();
                    if !t.is_empty() {
                        let i = rng.below(t.len());
                        t[i] = b'a' + rng.below(26) as u8;
                    }
                    String::from_utf8_lossy(&t).to_string()
                }
                _ => (0..1 + rng.below(10))
                    .map(|_| (b'a' + rng.below(26) as u8) as char)
                    .collect(),
            };
            let old = shown(&b[s..e]);
            b.splice(s..e, new.bytes());
            format!("string {old} at {} -> {new:?}", place(b, s))
        }
        _ => {
            let at = rng.below(b.len());
            let p = place(b, at);
            b.truncate(at);
            format!("truncate at {at} ({p})")
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Running a case.

/// A worker's copy of the content folders, in which one file at a time is mutated.
struct Tree {
    /// Removed when the worker ends; an abort leaves it, and the case in it, behind.
    root: tempfile::TempDir,
    /// Compiled unmutated rulesets by folder, for games whose mutated file is no input of
    /// the ruleset.
    compiled: std::cell::RefCell<std::collections::HashMap<PathBuf, Rc<CompiledRuleset>>>,
}

impl Tree {
    fn new(content: &Content, worker: usize) -> Tree {
        // Named for the process and worker, so that the case an abort leaves is found.
        let root = tempfile::Builder::new()
            .prefix(&format!("muster-fuzz-{}-{worker}-", std::process::id()))
            .tempdir()
            .unwrap();
        for (f, bytes) in content.files.iter().zip(&content.originals) {
            let p = root.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, bytes).unwrap();
        }
        Tree {
            root,
            compiled: std::cell::RefCell::default(),
        }
    }
}

/// The scenario whose check and game reach a file.
fn scenario_for(rel: &Path, pick: u64) -> PathBuf {
    let s = rel.to_string_lossy();
    if s.starts_with("tests/demo") {
        return PathBuf::from("tests/demo/scenarios/demo/skirmish.ron");
    }
    if s.contains("last_victory") {
        return PathBuf::from("scenarios/last_victory/chickamauga.ron");
    }
    if s.starts_with("scenarios/sedgwick_attacks/") && !s.contains("/maps/") {
        return rel.to_path_buf();
    }
    let three = ["rebel_ambush", "sedgwicks_switch", "keep_going_boys"];
    PathBuf::from(format!(
        "scenarios/sedgwick_attacks/{}.ron",
        three[(pick % 3) as usize]
    ))
}

/// How a case ended, short of a panic.
#[derive(Debug, PartialEq)]
enum Ending {
    /// `check` reported a problem.
    Refused,
    /// The game stopped with an error.
    GameError,
    /// The game played its turn and named a result.
    Played,
    /// The game ran out of its operations budget: a short game, not a problem.
    Budget,
}

/// What `muster check` is pointed at to check a file: a table, map or scenario itself; a
/// script or manifest through its ruleset folder; a script outside any ruleset folder (an
/// imported helper) through the scenario that plays it.
fn check_target(tree: &Tree, rel: &Path, scenario: &Path) -> PathBuf {
    let own = tree.root.path().join(rel);
    let is_ron = rel.extension().is_some_and(|e| e == "ron");
    if is_ron && rel.file_name().is_some_and(|n| n != "ruleset.ron") {
        return own;
    }
    match own.parent() {
        Some(dir) if dir.join("ruleset.ron").is_file() => dir.to_path_buf(),
        _ => scenario.to_path_buf(),
    }
}

/// Runs `check` on the mutated file, then a short game of its scenario if check passes.
fn run_case(tree: &Tree, content: &Content, plan: &Plan) -> Ending {
    let rel = &content.files[plan.file];
    let scenario = tree.root.path().join(scenario_for(rel, plan.pick));
    let problems = check_path(&check_target(tree, rel, &scenario));
    // Every message is formatted, as `muster check` prints it.
    let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
    if !text.is_empty() {
        if repro() {
            eprintln!("check: {}", text.join("\n       "));
        }
        return Ending::Refused;
    }
    let opts = GameOptions {
        seed: plan.game_seed,
        ..GameOptions::default()
    };
    // A scenario or a map is no input of the ruleset: its game may run on the worker's
    // compiled copy of the unmutated ruleset, as `muster simulate` shares one between games.
    let s = rel.to_string_lossy();
    let ruleset_untouched = !s.contains("rulesets/") && !s.contains("tables/");
    let played = (|| {
        let scenario = Scenario::load(&scenario)?;
        let dir = scenario.ruleset_dir();
        let compiled = match tree.compiled.borrow().get(&dir) {
            Some(c) if ruleset_untouched => Some(Rc::clone(c)),
            _ => None,
        };
        let compiled = match compiled {
            Some(c) => c,
            None => {
                let mut c = CompiledRuleset::load(&dir)?;
                // A short game: the whole game (the set-up, the turn, the bots' questions, the
                // victory check) may run so many script operations, then stops with an error.
                c.engine_mut().on_progress(|_| {
                    BUDGET.with(|b| match b.get() {
                        0 => Some(rhai::Dynamic::UNIT),
                        left => {
                            b.set(left - 1);
                            None
                        }
                    })
                });
                let c = Rc::new(c);
                if ruleset_untouched {
                    tree.compiled.borrow_mut().insert(dir, Rc::clone(&c));
                }
                c
            }
        };
        BUDGET.with(|b| b.set(plan.budget));
        let mut game = Game::start(&scenario, compiled, &opts)?;
        game.set_up()?;
        if !game.over() {
            game.play_turn()?;
        }
        game.victory()
    })();
    match played {
        Ok(_) => Ending::Played,
        Err(e) => {
            let e = e.to_string();
            if repro() {
                eprintln!("play: {e}");
            }
            if BUDGET.with(Cell::get) == 0 {
                Ending::Budget
            } else {
                Ending::GameError
            }
        }
    }
}

fn repro() -> bool {
    std::env::var_os("MUSTER_FUZZ_CASE").is_some()
}

fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v}: expected a whole number")),
        Err(_) => default,
    }
}

/// Panics in worker threads are caught and reported by the harness: the hook keeps their place
/// instead of printing each one. Panics elsewhere print as usual.
fn quiet_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if WORKER.with(Cell::get) {
            let at = info
                .location()
                .map_or(String::new(), |l| format!("{}:{}", l.file(), l.line()));
            PANIC_AT.with(|p| *p.borrow_mut() = at);
        } else {
            default(info);
        }
    }));
}

/// What the workers share with the watchdog.
struct Shared {
    content: Content,
    seed: u64,
    next: AtomicU64,
    end: u64,
    /// Per worker: the case it runs and since when.
    running: Vec<Mutex<Option<(u64, Instant)>>>,
    done: AtomicU64,
    refused: AtomicU64,
    game_errors: AtomicU64,
    played: AtomicU64,
    budget: AtomicU64,
    /// (case, description, message, place) of each panic.
    panics: Mutex<Vec<(u64, String, String, String)>>,
    /// The slowest case: (milliseconds, case).
    slowest: Mutex<(u128, u64)>,
    started: Instant,
}

fn worker(shared: &Shared, w: usize) {
    WORKER.with(|c| c.set(true));
    let tree = Tree::new(&shared.content, w);
    let progress = shared.end - shared.next.load(Ordering::Relaxed) >= 20_000;
    loop {
        let case = shared.next.fetch_add(1, Ordering::Relaxed);
        if case >= shared.end {
            break;
        }
        let plan = Plan::new(shared.seed, case, &shared.content);
        let rel = &shared.content.files[plan.file];
        let path = tree.root.path().join(rel);
        std::fs::write(&path, &plan.bytes).unwrap();
        // Written before the case runs, so that an abort (a stack overflow) leaves it behind.
        let _ = std::fs::write(
            tree.root.path().join("current-case.txt"),
            plan.describe(&shared.content),
        );
        if repro() {
            eprintln!("{}", plan.describe(&shared.content));
        }
        let start = Instant::now();
        *shared.running[w].lock().unwrap() = Some((case, start));
        CASE.with(|c| c.set(case));
        let outcome = catch_unwind(AssertUnwindSafe(|| run_case(&tree, &shared.content, &plan)));
        CASE.with(|c| c.set(u64::MAX));
        *shared.running[w].lock().unwrap() = None;
        let ms = start.elapsed().as_millis();
        {
            let mut s = shared.slowest.lock().unwrap();
            if ms > s.0 {
                *s = (ms, case);
            }
        }
        std::fs::write(&path, &shared.content.originals[plan.file]).unwrap();
        match outcome {
            Ok(Ending::Refused) => shared.refused.fetch_add(1, Ordering::Relaxed),
            Ok(Ending::GameError) => shared.game_errors.fetch_add(1, Ordering::Relaxed),
            Ok(Ending::Played) => shared.played.fetch_add(1, Ordering::Relaxed),
            Ok(Ending::Budget) => shared.budget.fetch_add(1, Ordering::Relaxed),
            Err(payload) => {
                let message = payload
                    .downcast_ref::<&str>()
                    .map(ToString::to_string)
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                let at = PANIC_AT.with(|p| std::mem::take(&mut *p.borrow_mut()));
                // Shown at once (past the test's capture), so that a long run shows what it
                // finds while it goes on.
                let _ = writeln!(
                    std::io::stderr(),
                    "fuzz: panic at {at}: {message}\n  {}\n  reproduce: {}",
                    plan.describe(&shared.content),
                    reproduce(shared.seed, case)
                );
                shared.panics.lock().unwrap().push((
                    case,
                    plan.describe(&shared.content),
                    message,
                    at,
                ));
                0
            }
        };
        let done = shared.done.fetch_add(1, Ordering::Relaxed) + 1;
        if progress && done.is_multiple_of(1_000) {
            let _ = writeln!(
                std::io::stderr(),
                "fuzz: {done} cases in {:.0} s, {} panics",
                shared.started.elapsed().as_secs_f64(),
                shared.panics.lock().unwrap().len()
            );
        }
    }
}

fn reproduce(seed: u64, case: u64) -> String {
    format!("MUSTER_FUZZ_SEED={seed} MUSTER_FUZZ_CASE={case} cargo test --test fuzz -- --nocapture")
}

/// The mutation test. `MUSTER_FUZZ_CASES` (default 2,000), `MUSTER_FUZZ_SEED` (default 1),
/// `MUSTER_FUZZ_JOBS` (default: the machine's cores, at most 2), `MUSTER_FUZZ_TIMEOUT`
/// (seconds a case may take, default 10) and `MUSTER_FUZZ_CASE` (run that one case, printing
/// what it did) steer it; see docs/fuzzing.md.
#[test]
fn mutated_content_never_panics_hangs_or_exhausts_memory() {
    quiet_panics();
    let seed = env_u64("MUSTER_FUZZ_SEED", 1);
    SEED.store(seed, Ordering::Relaxed);
    let (first, end) = match std::env::var("MUSTER_FUZZ_CASE") {
        Ok(_) => {
            let c = env_u64("MUSTER_FUZZ_CASE", 0);
            (c, c + 1)
        }
        Err(_) => (0, env_u64("MUSTER_FUZZ_CASES", 2_000)),
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get().min(2));
    let jobs =
        (env_u64("MUSTER_FUZZ_JOBS", cores as u64).max(1) as usize).min((end - first) as usize);
    let timeout = Duration::from_secs(env_u64("MUSTER_FUZZ_TIMEOUT", 10));
    let shared = Arc::new(Shared {
        content: Content::load(),
        seed,
        next: AtomicU64::new(first),
        end,
        running: (0..jobs).map(|_| Mutex::new(None)).collect(),
        done: AtomicU64::new(0),
        refused: AtomicU64::new(0),
        game_errors: AtomicU64::new(0),
        played: AtomicU64::new(0),
        budget: AtomicU64::new(0),
        panics: Mutex::new(Vec::new()),
        slowest: Mutex::new((0, 0)),
        started: Instant::now(),
    });
    assert!(
        shared.content.files.len() > 40,
        "the content folders hold too few files: {:?}",
        shared.content.root
    );
    let start = Instant::now();
    let handles: Vec<_> = (0..jobs)
        .map(|w| {
            let shared = Arc::clone(&shared);
            // The stack the command line gives its scripts' thread: a case must not need more.
            std::thread::Builder::new()
                .name(format!("fuzz-{w}"))
                .stack_size(muster_interpreter::host::engine::SCRIPT_THREAD_STACK)
                .spawn(move || worker(&shared, w))
                .unwrap()
        })
        .collect();
    // The watchdog: a case past the timeout fails the test at once, naming it (its thread cannot
    // be stopped, and ends with the process).
    while !handles.iter().all(|h| h.is_finished()) {
        std::thread::sleep(Duration::from_millis(50));
        for slot in &shared.running {
            if let Some((case, since)) = *slot.lock().unwrap() {
                if since.elapsed() > timeout {
                    let plan = Plan::new(seed, case, &shared.content);
                    panic!(
                        "fuzz: a case ran past {timeout:?} (a hang?): {}\nreproduce: {}",
                        plan.describe(&shared.content),
                        reproduce(seed, case)
                    );
                }
            }
        }
    }
    for h in handles {
        h.join().unwrap();
    }
    let panics = shared.panics.lock().unwrap();
    let (slow_ms, slow_case) = *shared.slowest.lock().unwrap();
    let _ = writeln!(
        std::io::stderr(),
        "fuzz: {} cases (seed {seed}, {jobs} jobs) in {:.1} s: {} refused by check, {} game errors, {} games played a turn, {} games stopped by their budget; {} panics, 0 hangs, 0 allocation failures; slowest case {slow_ms} ms (case {slow_case})",
        end - first,
        start.elapsed().as_secs_f64(),
        shared.refused.load(Ordering::Relaxed),
        shared.game_errors.load(Ordering::Relaxed),
        shared.played.load(Ordering::Relaxed),
        shared.budget.load(Ordering::Relaxed),
        panics.len(),
    );
    if !panics.is_empty() {
        let mut report = String::new();
        for (case, what, message, at) in panics.iter().take(30) {
            let _ = writeln!(
                report,
                "{what}\n  panicked at {at}: {message}\n  reproduce: {}",
                reproduce(seed, *case)
            );
        }
        panic!("fuzz: {} cases panicked:\n{report}", panics.len());
    }
}

// ---------------------------------------------------------------------------------------------
// Regression tests: each panic, overflow or runaway allocation the fuzzer found, as the error
// it now is.

const DEMO_MAP: &str = "tests/demo/scenarios/demo/maps/field.ron";
const DEMO_CRT: &str = "tests/demo/tables/demo/crt.ron";
const SKIRMISH: &str = "tests/demo/scenarios/demo/skirmish.ron";

/// `file` with `from` replaced by `to` (which must occur), written to a fresh temp folder; the
/// messages `check` gives for it, and the path they name (the folder is gone by then).
fn check_edited(file: &str, from: &str, to: &str) -> (PathBuf, Vec<String>) {
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains(from), "{file} holds no `{from}`");
    let dir = tempfile::Builder::new()
        .prefix("muster-fuzz-regression-")
        .tempdir()
        .unwrap();
    let path = dir.path().join(Path::new(file).file_name().unwrap());
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    let errors = check_path(&path).iter().map(ToString::to_string).collect();
    (path, errors)
}

/// The one message `check` gives for `file` edited, which must contain `says`.
fn one_error(file: &str, from: &str, to: &str, says: &str) {
    let (_, errors) = check_edited(file, from, to);
    assert!(
        errors.len() == 1 && errors[0].contains(says),
        "`{from}` -> `{to}`: {errors:?}"
    );
}

#[test]
fn a_die_range_from_high_to_low_is_an_error_at_its_row() {
    let (path, errors) = check_edited(DEMO_CRT, "(\"2\", [", "(\"4-2\", [");
    // The row stands on line 9, its key after the quote at column 11.
    assert_eq!(
        errors,
        [format!(
            "{}:9:11: row `4-2` runs from high to low: write `2-4`",
            path.display()
        )]
    );
}

#[test]
fn a_cell_range_from_high_to_low_or_a_huge_cell_number_is_an_error() {
    one_error(
        DEMO_CRT,
        "\"Dr\", \"Dr\", \"De\"",
        "\"Dr\", \"3-1\", \"De\"",
        "the range `3-1` runs from high to low: write `1-3`",
    );
    one_error(
        DEMO_CRT,
        "\"Ar\", \"Ar\", \"Dr\"",
        "\"Ar\", \"123456789012345678901234567890\", \"Dr\"",
        "too large a number",
    );
}

#[test]
fn a_map_range_from_high_to_low_is_an_error_not_an_overflow() {
    let (path, errors) = check_edited(DEMO_MAP, "column_range: (1, 10)", "column_range: (10, 1)");
    assert_eq!(
        errors,
        [format!(
            "{}:5:14: numbering: column_range (10, 1) runs from high to low: write (1, 10)",
            path.display()
        )]
    );
}

#[test]
fn a_map_too_large_to_allocate_or_out_of_range_is_an_error() {
    for (to, says) in [
        ("column_range: (1, 2147483647)", "too far out"),
        ("column_range: (-2147483648, 10)", "too far out"),
        (
            "column_range: (1, 1000000)",
            "a map may span at most 1048576 hexes",
        ),
        (
            "digits: 9223372036854775807, column_range: (1, 10)",
            "1 to 6 digits",
        ),
        ("digits: 0, column_range: (1, 10)", "1 to 6 digits"),
    ] {
        one_error(DEMO_MAP, "column_range: (1, 10)", to, says);
    }
}

/// The demo game set up, for calling the script API with extreme numbers.
fn demo_game() -> Game {
    let mut game = Game::from_scenario(Path::new(SKIRMISH), &GameOptions::default()).unwrap();
    game.set_up().unwrap();
    game
}

#[test]
fn a_track_pushed_past_the_largest_number_is_a_script_error() {
    let game = demo_game();
    let max = game
        .eval("game.add_track(\"vp\", 9223372036854775807)")
        .unwrap();
    assert_eq!(max.as_int().unwrap(), i64::MAX);
    let e = game
        .eval("game.add_track(\"vp\", 1)")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("track `vp`") && e.contains("cannot take 1 more"),
        "{e}"
    );
}

#[test]
fn a_move_rank_of_extreme_weights_still_ranks() {
    let game = demo_game();
    let moved = game
        .eval(
            "game.choose_move(\"red\", \"move\", \"0103\", #{ profile: \"foot\", mp: 4 }, \
             #{ rank: #{ goals: [\"0504\"], keep: -9223372036854775807, weight: 9223372036854775807, \
             stay: 9223372036854775807, hexes: [[[\"0104\"], 9223372036854775807]] } })",
        )
        .unwrap();
    assert!(moved.is_map(), "{moved:?}");
}

#[test]
fn a_retreat_of_a_huge_number_of_steps_ends_at_once() {
    let game = demo_game();
    let steps = |n: &str| {
        game.eval(&format!(
            "game.retreat_hexes(\"0504\", {n}, \"foot\", []).len()"
        ))
        .unwrap()
        .as_int()
        .unwrap()
    };
    assert!(steps("1") > 0);
    // 2^31 steps looped two billion times over an empty frontier (a hang); 2^32 + 1 wrapped
    // round to one step.
    assert_eq!(steps("2147483648"), 0);
    assert_eq!(steps("4294967297"), 0);
}

#[test]
fn a_huge_column_shift_clamps_and_a_table_needs_a_column() {
    let game = demo_game();
    let last = game
        .eval("game.column(\"crt\", \"1-1\", 9223372036854775807)")
        .unwrap();
    assert_eq!(last.into_string().unwrap(), "4-1");
    let first = game
        .eval("game.column(\"crt\", \"1-1\", -9223372036854775807)")
        .unwrap();
    assert_eq!(first.into_string().unwrap(), "1-2");
    one_error(
        DEMO_CRT,
        "columns: [\"1-2\", \"1-1\", \"2-1\", \"3-1\", \"4-1\"]",
        "columns: []",
        "table `crt` has no columns",
    );
}

#[test]
fn a_turn_at_the_end_of_the_range_is_an_error_at_its_key() {
    // `last_turn: 2^63 - 1` overflowed the turn count of the victory check.
    one_error(
        SKIRMISH,
        "last_turn: 6",
        "last_turn: 9223372036854775807",
        "`last_turn` is 9223372036854775807; a game turn is a number from -1000000 to 1000000",
    );
    one_error(
        SKIRMISH,
        "last_turn: 6",
        "first_turn: -9223372036854775808, last_turn: 6",
        "`first_turn` is -9223372036854775808",
    );
}
