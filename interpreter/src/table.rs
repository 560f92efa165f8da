//! Tables in RON: column tables chosen by a value (odds, strength), row ranges
//! of die rolls, column shifts clamped to the end columns, two-way matrices
//! looked up by keys, and keyed value charts.
//!
//! Every result cell is parsed once, at load, by the grammar in
//! `result.pest` into an [`Outcome`]; a bad cell is a load error at its
//! file, line and column. What a code *does* is the ruleset's business.

use crate::error::{Error, Location, Result};
use crate::source::{load_ron, Cursor};
use indexmap::IndexMap;
use pest::Parser;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

/// The pest parser generated from `result.pest`.
#[allow(missing_docs)]
mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "result.pest"]
    pub struct ResultParser;
}
use grammar::{ResultParser, Rule};

/// A parsed result cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Outcome {
    /// No effect (`-`).
    Nothing,
    /// A plain number.
    Number(i64),
    /// A code or word, such as `SK1`, `2MH`, `BD*`, `Ex`, `CLOSE FIGHT`.
    Code(Code),
    /// A side prefix: `A:` (attacker) or `D:` (defender).
    Sided(String, Box<Outcome>),
    /// All of these apply (`X + Y`).
    Both(Vec<Outcome>),
    /// The owner chooses one (`X / Y`).
    Choice(Vec<Outcome>),
    /// The first applies, the second optionally too (`X (Y)`).
    Optional(Box<Outcome>, Box<Outcome>),
    /// An inclusive range of numbers (`0-1`).
    Range(i64, i64),
    /// Bands read by position (`X | Y | Z`), such as boxes of a combat
    /// result, each holding the ratings it applies to.
    Bands(Vec<Outcome>),
}

/// A code with its numbers: `2MH` is `MH` with count 2; `SK1` is `SK` with
/// number 1; `BD*` is `BD` starred.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Code {
    /// The letters (or words) of the code.
    pub name: String,
    /// A number written before the letters.
    pub count: Option<i64>,
    /// A number written after the letters.
    pub number: Option<i64>,
    /// Whether the code ends with `*`.
    pub star: bool,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let join = |f: &mut fmt::Formatter<'_>, v: &[Outcome], sep: &str| {
            let parts: Vec<String> = v.iter().map(ToString::to_string).collect();
            write!(f, "{}", parts.join(sep))
        };
        match self {
            Outcome::Nothing => write!(f, "-"),
            Outcome::Number(n) => write!(f, "{n}"),
            Outcome::Code(c) => {
                if let Some(n) = c.count {
                    write!(f, "{n}")?;
                }
                write!(f, "{}", c.name)?;
                if let Some(n) = c.number {
                    write!(f, "{n}")?;
                }
                if c.star {
                    write!(f, "*")?;
                }
                Ok(())
            }
            Outcome::Sided(s, o) => write!(f, "{s}:{o}"),
            Outcome::Both(v) => join(f, v, " + "),
            Outcome::Choice(v) => join(f, v, " / "),
            Outcome::Optional(a, b) => write!(f, "{a} ({b})"),
            Outcome::Range(lo, hi) => write!(f, "{lo}-{hi}"),
            Outcome::Bands(v) => join(f, v, " | "),
        }
    }
}

/// Parses one result cell.
///
/// ```
/// use muster_interpreter::table::{parse_outcome, Outcome};
/// let o = parse_outcome("D:2MH + SK1").unwrap();
/// assert_eq!(o.to_string(), "D:2MH + SK1");
/// assert!(matches!(o, Outcome::Both(_)));
/// ```
pub fn parse_outcome(text: &str) -> Result<Outcome, String> {
    let mut pairs = ResultParser::parse(Rule::result, text).map_err(|e| {
        let col = match e.line_col {
            pest::error::LineColLocation::Pos((_, c)) | pest::error::LineColLocation::Span((_, c), _) => c,
        };
        format!("cannot read result `{text}` at character {col}: expected a code (SK1, 2MH, BD*), a word (CRUSHED), a number or `-`, a range (0-1), joined by `/`, `+`, `|`, `( )` or prefixed `A:`/`D:`")
    })?;
    let result = pairs
        .next()
        .expect("the grammar's top rule always yields one pair");
    let top = result
        .into_inner()
        .next()
        .expect("result holds bands or a choice");
    build(top)
}

/// A number of a cell, which the grammar has checked is digits.
fn cell_number(text: &str) -> Result<i64, String> {
    text.parse()
        .map_err(|_| format!("`{text}` is too large a number for a table cell"))
}

fn build(pair: pest::iterators::Pair<'_, Rule>) -> Result<Outcome, String> {
    let rule = pair.as_rule();
    let text = pair.as_str().trim().to_string();
    let mut inner: Vec<_> = pair.into_inner().collect();
    match rule {
        Rule::choice | Rule::both => {
            let mut parts: Vec<Outcome> = inner.into_iter().map(build).collect::<Result<_, _>>()?;
            Ok(if parts.len() == 1 {
                parts.remove(0)
            } else if rule == Rule::choice {
                Outcome::Choice(parts)
            } else {
                Outcome::Both(parts)
            })
        }
        Rule::optional => {
            let base = build(inner.remove(0))?;
            Ok(match inner.pop() {
                Some(extra) => Outcome::Optional(Box::new(base), Box::new(build(extra)?)),
                None => base,
            })
        }
        Rule::sided => {
            if inner.len() == 2 {
                let side = inner[0].as_str().to_string();
                Ok(Outcome::Sided(side, Box::new(build(inner.remove(1))?)))
            } else {
                build(inner.remove(0))
            }
        }
        Rule::bands => Ok(Outcome::Bands(
            inner.into_iter().map(build).collect::<Result<_, _>>()?,
        )),
        Rule::range => {
            let (lo, hi) = text.split_once('-').unwrap_or((&text, &text));
            let (lo, hi) = (cell_number(lo)?, cell_number(hi)?);
            if lo > hi {
                return Err(format!(
                    "the range `{text}` runs from high to low: write `{hi}-{lo}`"
                ));
            }
            Ok(Outcome::Range(lo, hi))
        }
        Rule::number => Ok(Outcome::Number(cell_number(&text)?)),
        Rule::nothing => Ok(Outcome::Nothing),
        Rule::phrase => Ok(if inner.len() == 1 {
            Outcome::Code(code(inner[0].as_str()))
        } else {
            let words: Vec<&str> = inner.iter().map(|p| p.as_str()).collect();
            Outcome::Code(Code {
                name: words.join(" "),
                count: None,
                number: None,
                star: false,
            })
        }),
        _ => Ok(Outcome::Code(code(&text))),
    }
}

fn code(text: &str) -> Code {
    let star = text.ends_with('*');
    let body = text.trim_end_matches('*');
    let lead: String = body.chars().take_while(char::is_ascii_digit).collect();
    let rest = &body[lead.len()..];
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    let trail = &rest[name.len()..];
    Code {
        name,
        count: lead.parse().ok(),
        number: trail.parse().ok(),
        star,
    }
}

/// What a table's cells hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum CellKind {
    /// Result strings, parsed by the result grammar.
    #[default]
    Results,
    /// Plain text kept as it is.
    Text,
}

/// A table file as written.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum TableFile {
    /// A grid of cells: columns by label or by value, rows by die range or key.
    Table {
        /// The name scripts use.
        name: String,
        /// Column labels, left to right.
        columns: Vec<String>,
        /// The least value of each column, for choosing a column by a number
        /// (a strength, or odds as attack ÷ defence); empty if columns are
        /// chosen only by label.
        #[serde(default)]
        from: Vec<f64>,
        /// Rows: a die range (`"3"`, `"11-16"`, `"7+"`) or a key, with one cell per column.
        rows: Vec<(String, Vec<String>)>,
        /// What the cells hold.
        #[serde(default)]
        cells: CellKind,
    },
    /// A chart of named entries, each with named values.
    Values {
        /// The name scripts use.
        name: String,
        /// Entries: key → field → value.
        entries: IndexMap<String, IndexMap<String, crate::value::Value>>,
    },
}

/// How a row is matched.
#[derive(Clone, Debug, PartialEq)]
enum RowKey {
    Range(i64, i64),
    Key(String),
}

/// A row's key: a die range when it is written as numbers (`3`, `11-16`, `7+`), else a word.
fn row_key(text: &str) -> Result<RowKey, String> {
    let t = text.trim();
    let numeric = |s: &str| {
        let d = s.trim().strip_prefix('-').unwrap_or(s.trim());
        !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())
    };
    let number = |s: &str| {
        s.trim()
            .parse::<i64>()
            .map_err(|_| format!("row `{t}`: `{}` is too large a number for a roll", s.trim()))
    };
    if let Some(n) = t.strip_suffix('+').filter(|n| numeric(n)) {
        return Ok(RowKey::Range(number(n)?, i64::MAX));
    }
    if numeric(t) {
        let n = number(t)?;
        return Ok(RowKey::Range(n, n));
    }
    if let Some((a, b)) = t.split_once('-').filter(|(a, b)| numeric(a) && numeric(b)) {
        let (a, b) = (number(a)?, number(b)?);
        // A range from high to low would match no roll: a typo, not a key.
        if a > b {
            return Err(format!("row `{t}` runs from high to low: write `{b}-{a}`"));
        }
        return Ok(RowKey::Range(a, b));
    }
    Ok(RowKey::Key(t.to_string()))
}

/// A loaded grid table.
#[derive(Clone, Debug)]
pub struct Grid {
    /// Column labels.
    pub columns: Vec<String>,
    from: Vec<f64>,
    rows: Vec<(RowKey, Vec<Cell>)>,
}

/// One loaded cell.
#[derive(Clone, Debug)]
pub enum Cell {
    /// A parsed result.
    Result(Outcome),
    /// Text.
    Text(String),
}

/// A loaded table.
#[derive(Clone, Debug)]
pub enum Table {
    /// A grid.
    Grid(Grid),
    /// A chart of values.
    Values(IndexMap<String, IndexMap<String, crate::value::Value>>),
}

/// Why a lookup failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LookupError {
    /// No table of that name.
    #[error("no table named `{0}`")]
    NoTable(String),
    /// No column with that label or for that value.
    #[error("table `{table}` has no column `{column}`")]
    NoColumn {
        /// The table.
        table: String,
        /// The column asked for.
        column: String,
    },
    /// No row for that roll or key.
    #[error("table `{table}` has no row for `{row}`")]
    NoRow {
        /// The table.
        table: String,
        /// The row asked for.
        row: String,
    },
    /// The table is not of the kind the lookup needs.
    #[error("table `{0}` is not of the kind this lookup needs")]
    WrongKind(String),
}

/// A column asked for by label or by value.
#[derive(Clone, Debug, PartialEq)]
pub enum ColumnKey<'a> {
    /// A column label.
    Label(&'a str),
    /// A value compared against the columns' `from` values.
    Value(f64),
}

/// A row asked for by die total or by key.
#[derive(Clone, Debug, PartialEq)]
pub enum RowQuery<'a> {
    /// A die total (or 11–66 reading).
    Roll(i64),
    /// A row key.
    Key(&'a str),
}

impl Grid {
    /// The index of a column. A value below every column's `from` gives the
    /// first column (the ruleset decides whether that is allowed).
    pub fn column_index(&self, name: &str, key: &ColumnKey<'_>) -> Result<usize, LookupError> {
        let none = || LookupError::NoColumn {
            table: name.to_string(),
            column: match key {
                ColumnKey::Label(l) => l.to_string(),
                ColumnKey::Value(v) => v.to_string(),
            },
        };
        match key {
            ColumnKey::Label(l) => self.columns.iter().position(|c| c == l).ok_or_else(none),
            ColumnKey::Value(v) => {
                if self.from.is_empty() {
                    return Err(none());
                }
                // Small tolerance so that 1/3 × 3 reads as 1.
                Ok(self.from.iter().rposition(|f| *v + 1e-9 >= *f).unwrap_or(0))
            }
        }
    }

    /// The cell at a column, shifted and clamped to the end columns, and a row.
    pub fn lookup(
        &self,
        name: &str,
        column: &ColumnKey<'_>,
        shift: i64,
        row: &RowQuery<'_>,
    ) -> Result<(&str, &Cell), LookupError> {
        let c = self.shifted(name, column, shift)?;
        let cells = self
            .rows
            .iter()
            .find(|(k, _)| match (k, row) {
                (RowKey::Range(a, b), RowQuery::Roll(n)) => (*a..=*b).contains(n),
                (RowKey::Key(k), RowQuery::Key(q)) => k == q,
                _ => false,
            })
            .map(|(_, cells)| cells)
            .ok_or_else(|| LookupError::NoRow {
                table: name.to_string(),
                row: match row {
                    RowQuery::Roll(n) => n.to_string(),
                    RowQuery::Key(k) => k.to_string(),
                },
            })?;
        Ok((&self.columns[c], &cells[c]))
    }

    /// The index of a column after a shift, clamped to the end columns.
    pub fn shifted(
        &self,
        name: &str,
        column: &ColumnKey<'_>,
        shift: i64,
    ) -> Result<usize, LookupError> {
        let c = self.column_index(name, column)? as i64;
        // Saturating: a script's shift may be the largest number there is.
        Ok(c.saturating_add(shift)
            .clamp(0, self.columns.len() as i64 - 1) as usize)
    }
}

/// All tables of a ruleset, by name.
#[derive(Clone, Debug, Default)]
pub struct Tables {
    tables: IndexMap<String, Table>,
}

impl Tables {
    /// Loads a table file and adds its table. A later table of the same name
    /// replaces an earlier one (a title overriding its series' table).
    pub fn load(&mut self, path: &Path) -> Result<()> {
        let (file, text): (TableFile, String) = load_ron(path)?;
        let (name, table) = check_table(file, &text, path)?;
        self.tables.insert(name, table);
        Ok(())
    }

    /// A table by name.
    pub fn get(&self, name: &str) -> Result<&Table, LookupError> {
        self.tables
            .get(name)
            .ok_or_else(|| LookupError::NoTable(name.to_string()))
    }

    /// A grid table by name.
    pub fn grid(&self, name: &str) -> Result<&Grid, LookupError> {
        match self.get(name)? {
            Table::Grid(g) => Ok(g),
            Table::Values(_) => Err(LookupError::WrongKind(name.to_string())),
        }
    }

    /// A value from a chart.
    pub fn value(
        &self,
        name: &str,
        entry: &str,
        field: &str,
    ) -> Result<&crate::value::Value, LookupError> {
        match self.get(name)? {
            Table::Values(v) => {
                v.get(entry)
                    .and_then(|e| e.get(field))
                    .ok_or_else(|| LookupError::NoRow {
                        table: name.to_string(),
                        row: format!("{entry}.{field}"),
                    })
            }
            Table::Grid(_) => Err(LookupError::WrongKind(name.to_string())),
        }
    }

    /// The names of the loaded tables.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tables.keys().map(String::as_str)
    }
}

/// Checks a parsed table file and turns it into a [`Table`].
fn check_table(file: TableFile, text: &str, path: &Path) -> Result<(String, Table)> {
    let mut cur = Cursor::new(text, path);
    match file {
        TableFile::Values { name, entries } => Ok((name, Table::Values(entries))),
        TableFile::Table {
            name,
            columns,
            from,
            rows,
            cells,
        } => {
            // Every lookup ends at a column; a table without one has nothing to give.
            if columns.is_empty() {
                return Err(Error::at(
                    Location::file(path),
                    format!("table `{name}` has no columns: list at least one in `columns`"),
                ));
            }
            if !from.is_empty() && from.len() != columns.len() {
                return Err(Error::at(
                    Location::file(path),
                    format!(
                        "table `{name}`: `from` has {} values for {} columns",
                        from.len(),
                        columns.len()
                    ),
                ));
            }
            if from.windows(2).any(|w| w[0] >= w[1]) {
                return Err(Error::at(
                    Location::file(path),
                    format!("table `{name}`: `from` values must increase left to right"),
                ));
            }
            cur.skip_to("rows:");
            let mut out = Vec::with_capacity(rows.len());
            for (key, row) in rows {
                let at = cur.find_str(&key);
                if row.len() != columns.len() {
                    return Err(Error::at(
                        at,
                        format!(
                            "row `{key}` has {} cells; the table has {} columns",
                            row.len(),
                            columns.len()
                        ),
                    ));
                }
                let mut parsed = Vec::with_capacity(row.len());
                for cell in row {
                    let at = cur.find_str(&cell);
                    parsed.push(match cells {
                        CellKind::Text => Cell::Text(cell),
                        CellKind::Results => {
                            Cell::Result(parse_outcome(&cell).map_err(|m| Error::at(at, m))?)
                        }
                    });
                }
                out.push((row_key(&key).map_err(|m| Error::at(at, m))?, parsed));
            }
            Ok((
                name,
                Table::Grid(Grid {
                    columns,
                    from,
                    rows: out,
                }),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grammar_covers_the_rulebook_forms() {
        let cases = [
            ("Ae", "Ae"),
            ("SK1", "SK1"),
            ("2MH", "2MH"),
            ("BD*", "BD*"),
            ("RA2", "RA2"),
            ("CRUSHED", "CRUSHED"),
            ("CLOSE FIGHT", "CLOSE FIGHT"),
            ("D / R1", "D / R1"),
            ("MH (P1)", "MH (P1)"),
            ("D2 + SK1", "D2 + SK1"),
            ("A:D + D:2MH", "A:D + D:2MH"),
            ("-", "-"),
            ("3", "3"),
            ("-1", "-1"),
            ("- | 0-1 | 2-4", "- | 0-1 | 2-4"),
            ("0 | 1-2 | 3-6", "0 | 1-2 | 3-6"),
            ("MH R2 (P1)", "MH R2 (P1)"),
        ];
        for (input, back) in cases {
            let o = parse_outcome(input).unwrap_or_else(|e| panic!("{input}: {e}"));
            assert_eq!(o.to_string(), back, "{input}");
        }
    }

    #[test]
    fn bands_hold_ranges_by_position() {
        assert_eq!(
            parse_outcome("- | 0-1 | 2-4").unwrap(),
            Outcome::Bands(vec![
                Outcome::Nothing,
                Outcome::Range(0, 1),
                Outcome::Range(2, 4)
            ])
        );
        assert!(parse_outcome("0-1 |").is_err());
    }

    #[test]
    fn codes_keep_their_numbers() {
        assert_eq!(
            parse_outcome("2MH").unwrap(),
            Outcome::Code(Code {
                name: "MH".into(),
                count: Some(2),
                number: None,
                star: false
            })
        );
        assert_eq!(
            parse_outcome("BD*").unwrap(),
            Outcome::Code(Code {
                name: "BD".into(),
                count: None,
                number: None,
                star: true
            })
        );
        let Outcome::Sided(side, inner) = parse_outcome("A:SK1").unwrap() else {
            panic!()
        };
        assert_eq!(side, "A");
        assert_eq!(
            *inner,
            Outcome::Code(Code {
                name: "SK".into(),
                count: None,
                number: Some(1),
                star: false
            })
        );
    }

    #[test]
    fn bad_cells_are_rejected() {
        for bad in ["", "SK1 +", "/ D", "D:", "(MH)", "MH (", "S K 1 %"] {
            assert!(parse_outcome(bad).is_err(), "{bad:?} should not parse");
        }
    }

    #[test]
    fn ranges_from_high_to_low_and_huge_numbers_are_errors() {
        for bad in [
            "4-2",
            "1 | 3-1",
            "123456789012345678901234567890",
            "0-99999999999999999999",
        ] {
            assert!(
                parse_outcome(bad).is_err(),
                "{bad:?} should not be a result"
            );
        }
        assert!(row_key("4-2").unwrap_err().contains("write `2-4`"));
        assert!(row_key("99999999999999999999+").is_err());
        assert_eq!(row_key("-1").unwrap(), RowKey::Range(-1, -1));
        assert_eq!(row_key("7+").unwrap(), RowKey::Range(7, i64::MAX));
        assert_eq!(row_key("5-5").unwrap(), RowKey::Range(5, 5));
        assert_eq!(row_key("Rout").unwrap(), RowKey::Key("Rout".into()));
    }

    fn crt() -> Grid {
        Grid {
            columns: vec!["1-2".into(), "1-1".into(), "2-1".into(), "3-1".into()],
            from: vec![0.5, 1.0, 2.0, 3.0],
            rows: vec![
                (
                    row_key("1").unwrap(),
                    ["Ae", "Ar", "Dr", "De"]
                        .iter()
                        .map(|s| Cell::Result(parse_outcome(s).unwrap()))
                        .collect(),
                ),
                (
                    row_key("2-6").unwrap(),
                    ["Ae", "Ae", "Ex", "Dr"]
                        .iter()
                        .map(|s| Cell::Result(parse_outcome(s).unwrap()))
                        .collect(),
                ),
            ],
        }
    }

    #[test]
    fn odds_choose_a_column_in_the_defenders_favour() {
        let g = crt();
        assert_eq!(
            g.column_index("crt", &ColumnKey::Value(13.0 / 4.0))
                .unwrap(),
            3
        );
        assert_eq!(
            g.column_index("crt", &ColumnKey::Value(1.0 / 3.0 * 3.0))
                .unwrap(),
            1
        );
        assert_eq!(g.column_index("crt", &ColumnKey::Value(1.9)).unwrap(), 1);
    }

    #[test]
    fn shifts_clamp_to_end_columns() {
        let g = crt();
        let (col, cell) = g
            .lookup("crt", &ColumnKey::Label("2-1"), 5, &RowQuery::Roll(1))
            .unwrap();
        assert_eq!(col, "3-1");
        assert!(matches!(cell, Cell::Result(o) if o.to_string() == "De"));
        let (col, _) = g
            .lookup("crt", &ColumnKey::Label("1-1"), -4, &RowQuery::Roll(4))
            .unwrap();
        assert_eq!(col, "1-2");
        assert!(g
            .lookup("crt", &ColumnKey::Label("1-1"), 0, &RowQuery::Roll(7))
            .is_err());
    }

    #[test]
    fn bad_cell_is_an_error_at_its_place() {
        let dir = tempfile::Builder::new()
            .prefix("muster-table-")
            .tempdir()
            .unwrap();
        let path = dir.path().join("bad.ron");
        std::fs::write(&path, "Table(\n  name: \"t\",\n  columns: [\"a\", \"b\"],\n  rows: [\n    (\"1\", [\"Ae\", \"D %\"]),\n  ],\n)\n").unwrap();
        let err = Tables::default().load(&path).unwrap_err().to_string();
        assert!(
            err.contains("bad.ron:5:19: cannot read result `D %`"),
            "{err}"
        );
    }
}
