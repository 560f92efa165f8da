//! Script section timers for `muster play --profile`.

use indexmap::IndexMap;

/// The time and script operations spent in one named script section (see [`Timers`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct SectionTime {
    /// From entering to leaving, summed.
    pub total: std::time::Duration,
    /// The total less the time in sections opened inside it.
    pub own: std::time::Duration,
    /// Script operations from entering to leaving, summed (0 unless the game counts them,
    /// see `GameOptions::profile`).
    pub operations: u64,
    /// The operations less those in sections opened inside it.
    pub own_operations: u64,
    /// Times entered.
    pub count: u64,
}

/// A section entered and not yet left.
#[derive(Debug)]
struct OpenSection {
    name: String,
    started: std::time::Instant,
    operations_at_start: u64,
    /// Time and operations spent in sections opened inside this one.
    inner: std::time::Duration,
    inner_operations: u64,
}

/// Script section timers: `game.timer(name)` opens a section and `game.timer_end(name)`
/// closes it. Sections nest, so each also knows its own time (less the sections inside).
/// Each section also counts the script operations run inside it, read from
/// the host's operation counter and handed in
/// (`enter_at`, `leave_at`).
#[derive(Debug, Default)]
pub struct Timers {
    totals: IndexMap<String, SectionTime>,
    open: Vec<OpenSection>,
}

impl Timers {
    /// The sections by name, in the order first entered.
    pub fn sections(&self) -> impl Iterator<Item = (&str, SectionTime)> {
        self.totals.iter().map(|(k, t)| (k.as_str(), *t))
    }

    /// Opens section `name` when the operation count is `operations`.
    pub fn enter_at(&mut self, name: &str, operations: u64) {
        self.open.push(OpenSection {
            name: name.to_string(),
            started: std::time::Instant::now(),
            operations_at_start: operations,
            inner: std::time::Duration::default(),
            inner_operations: 0,
        });
    }

    /// The sections still open, innermost first: where a game was when it stopped.
    pub fn open_sections(&self) -> impl Iterator<Item = &str> {
        self.open.iter().rev().map(|s| s.name.as_str())
    }

    /// Closes every open section when the operation count is `operations` (a game stopped by an
    /// error leaves them open), so that their time and operations count.
    pub fn close_all_at(&mut self, operations: u64) {
        if let Some(outermost) = self.open.first().map(|s| s.name.clone()) {
            self.leave_at(&outermost, operations);
        }
    }

    /// Closes section `name` (and any left open inside it) when the operation count is
    /// `operations`.
    pub fn leave_at(&mut self, name: &str, operations: u64) {
        let Some(i) = self.open.iter().rposition(|s| s.name == name) else {
            return;
        };
        while self.open.len() > i {
            let s = self.open.pop().expect("non-empty");
            let elapsed = s.started.elapsed();
            let ops = operations.saturating_sub(s.operations_at_start);
            let t = self.totals.entry(s.name).or_default();
            t.total += elapsed;
            t.own += elapsed.saturating_sub(s.inner);
            t.operations += ops;
            t.own_operations += ops.saturating_sub(s.inner_operations);
            t.count += 1;
            if let Some(parent) = self.open.last_mut() {
                parent.inner += elapsed;
                parent.inner_operations += ops;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Timers;
    use std::time::Duration;

    #[test]
    fn timers_nest_and_know_their_own_time() {
        let mut t = Timers::default();
        t.enter_at("turn", 0);
        std::thread::sleep(Duration::from_millis(2));
        t.enter_at("move", 0);
        std::thread::sleep(Duration::from_millis(5));
        t.leave_at("move", 0);
        t.leave_at("nothing open", 0);
        t.enter_at("combat", 0);
        // Left open: closing the turn closes it too.
        t.leave_at("turn", 0);
        let turn = t.totals["turn"];
        let moves = t.totals["move"];
        assert_eq!(
            (turn.count, moves.count, t.totals["combat"].count),
            (1, 1, 1)
        );
        assert!(turn.total >= moves.total + Duration::from_millis(2));
        assert!(turn.own + moves.total <= turn.total + Duration::from_micros(1));
        assert!(turn.own < turn.total - Duration::from_millis(4));
        assert_eq!(moves.own, moves.total);
        assert!(t.open.is_empty());
    }

    #[test]
    fn sections_count_their_own_operations() {
        let mut t = Timers::default();
        t.enter_at("turn", 100);
        t.enter_at("move", 110);
        t.leave_at("move", 150);
        t.enter_at("move", 160);
        t.enter_at("search", 161);
        // Closing `move` closes the search left open inside it.
        t.leave_at("move", 170);
        t.leave_at("turn", 200);
        let (turn, moves, search) = (t.totals["turn"], t.totals["move"], t.totals["search"]);
        assert_eq!((turn.operations, turn.own_operations), (100, 50));
        assert_eq!(
            (moves.operations, moves.own_operations, moves.count),
            (50, 41, 2)
        );
        assert_eq!((search.operations, search.own_operations), (9, 9));
    }

    #[test]
    fn a_stopped_game_closes_its_open_sections() {
        let mut t = Timers::default();
        t.enter_at("turn", 0);
        t.enter_at("spin", 10);
        assert_eq!(t.open_sections().collect::<Vec<_>>(), ["spin", "turn"]);
        t.close_all_at(1000);
        assert!(t.open.is_empty());
        assert_eq!(t.totals["spin"].own_operations, 990);
        assert_eq!(t.totals["turn"].own_operations, 10);
    }
}
