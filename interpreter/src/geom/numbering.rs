//! Printed hex ids: how a map numbers its hexes and how ids turn into
//! [`Hex`] coordinates and back.
//!
//! A map declares its [`Numbering`]: flat- or pointy-top, which printed
//! columns (or rows) sit half a hex lower, whether the column number comes
//! first, whether columns count left-to-right or right-to-left, and optional
//! sheet prefixes (`N1904`, `S0712`) with each sheet's place in the whole map.
//! Ids parse and print back unchanged.

use crate::geom::hex::Hex;
use serde::{Deserialize, Serialize};

/// Flat-top hexes stand in columns; pointy-top hexes stand in rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Orientation {
    /// Flat top and bottom; columns of hexes, every other column shifted down.
    #[default]
    FlatTop,
    /// Pointed top; rows of hexes, every other row shifted right.
    PointyTop,
}

/// Which printed columns (flat-top) or rows (pointy-top) are shifted half a hex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Shifted {
    /// Odd-numbered columns (rows) sit half a hex down (right).
    #[default]
    Odd,
    /// Even-numbered columns (rows) sit half a hex down (right).
    Even,
}

/// Which number comes first in an id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum DigitOrder {
    /// `CCRR`: column then row.
    #[default]
    ColumnRow,
    /// `RRCC`: row then column.
    RowColumn,
}

/// Which way column numbers grow across the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum ColumnDirection {
    /// Column numbers grow to the right (east).
    #[default]
    LeftToRight,
    /// Column numbers grow to the left (west), as on maps numbered from the east edge.
    RightToLeft,
}

/// A map sheet with its own id prefix, joined to the others.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sheet {
    /// The prefix of this sheet's ids, such as `N`.
    pub prefix: String,
    /// First and last printed column on the sheet.
    pub columns: (i32, i32),
    /// First and last printed row on the sheet.
    pub rows: (i32, i32),
    /// Added to the sheet's printed (column, row) to place it in the whole map.
    #[serde(default)]
    pub offset: (i32, i32),
}

/// How a map numbers its hexes, with its bounds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Numbering {
    /// Flat-top or pointy-top.
    #[serde(default)]
    pub orientation: Orientation,
    /// Which printed columns (rows for pointy-top) are shifted.
    #[serde(default)]
    pub shifted: Shifted,
    /// Column first or row first.
    #[serde(default)]
    pub order: DigitOrder,
    /// Which way column numbers grow.
    #[serde(default)]
    pub columns: ColumnDirection,
    /// Digits per number (2 gives `0102`).
    #[serde(default = "two")]
    pub digits: usize,
    /// First and last column of a single-sheet map (ignored when `sheets` is set).
    #[serde(default)]
    pub column_range: (i32, i32),
    /// First and last row of a single-sheet map (ignored when `sheets` is set).
    #[serde(default)]
    pub row_range: (i32, i32),
    /// Sheets with prefixes; empty for a one-sheet map with bare ids.
    #[serde(default)]
    pub sheets: Vec<Sheet>,
}

fn two() -> usize {
    2
}

/// The arithmetic of [`Numbering::hex_to_offset`] with everything that does
/// not depend on the hex worked out once, for the hot paths (LOS, searches).
#[derive(Clone, Copy, Debug)]
pub struct FastLayout {
    flat: bool,
    k: i32,
    mirror: Option<i32>,
}

impl FastLayout {
    /// The global printed (column, row) of a hex.
    #[inline]
    #[must_use]
    pub fn hex_to_offset(&self, h: Hex) -> (i32, i32) {
        let (x, row) = if self.flat {
            (h.q, h.r + (h.q + self.k).div_euclid(2))
        } else {
            (h.q + (h.r + self.k).div_euclid(2), h.r)
        };
        match self.mirror {
            Some(sum) => (sum - x, row),
            None => (x, row),
        }
    }
}

/// Why an id did not name a hex.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IdError {
    /// The text is not an id of this map's form.
    #[error("`{id}` is not a hex id of the form {form}")]
    Malformed {
        /// The text.
        id: String,
        /// A description of the expected form.
        form: String,
    },
    /// The id is well formed but names no hex of the map.
    #[error("hex `{0}` is off the map")]
    OffMap(String),
}

impl Numbering {
    /// A one-sheet flat-top `CCRR` numbering with odd columns shifted down.
    #[must_use]
    pub fn simple(columns: (i32, i32), rows: (i32, i32)) -> Self {
        Numbering {
            orientation: Orientation::FlatTop,
            shifted: Shifted::Odd,
            order: DigitOrder::ColumnRow,
            columns: ColumnDirection::LeftToRight,
            digits: 2,
            column_range: columns,
            row_range: rows,
            sheets: Vec::new(),
        }
    }

    /// The bounds of the whole map in global printed coordinates:
    /// (min column, max column, min row, max row).
    #[must_use]
    pub fn bounds(&self) -> (i32, i32, i32, i32) {
        // Asked on every hex conversion of a right-to-left map: no sheet list is built.
        if self.sheets.is_empty() {
            return (
                self.column_range.0,
                self.column_range.1,
                self.row_range.0,
                self.row_range.1,
            );
        }
        let mut b = (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
        for s in &self.sheets {
            b.0 = b.0.min(s.columns.0 + s.offset.0);
            b.1 = b.1.max(s.columns.1 + s.offset.0);
            b.2 = b.2.min(s.rows.0 + s.offset.1);
            b.3 = b.3.max(s.rows.1 + s.offset.1);
        }
        b
    }

    /// Whether a global printed (column, row) lies on some sheet.
    #[must_use]
    pub fn on_map(&self, col: i32, row: i32) -> bool {
        self.sheet_of(col, row).is_some()
    }

    fn sheet_of(&self, col: i32, row: i32) -> Option<(&str, (i32, i32))> {
        if self.sheets.is_empty() {
            // The one implicit sheet, checked without building it.
            let (c, r) = (self.column_range, self.row_range);
            return ((c.0..=c.1).contains(&col) && (r.0..=r.1).contains(&row))
                .then_some(("", (0, 0)));
        }
        self.sheets
            .iter()
            .find(|s| {
                let (c, r) = (col - s.offset.0, row - s.offset.1);
                (s.columns.0..=s.columns.1).contains(&c) && (s.rows.0..=s.rows.1).contains(&r)
            })
            .map(|s| (s.prefix.as_str(), s.offset))
    }

    /// Global printed column turned into a left-to-right index.
    fn x_of(&self, col: i32) -> i32 {
        match self.columns {
            ColumnDirection::LeftToRight => col,
            ColumnDirection::RightToLeft => {
                let (lo, hi, _, _) = self.bounds();
                lo + hi - col
            }
        }
    }

    /// The parity of the shifted lines in left-to-right index terms.
    fn shifted_parity(&self) -> i32 {
        let printed = match self.shifted {
            Shifted::Odd => 1,
            Shifted::Even => 0,
        };
        match (self.orientation, self.columns) {
            (Orientation::FlatTop, ColumnDirection::RightToLeft) => {
                let (lo, hi, _, _) = self.bounds();
                (printed + lo + hi).rem_euclid(2)
            }
            _ => printed,
        }
    }

    /// The hex at global printed (column, row); no bounds check.
    #[must_use]
    pub fn offset_to_hex(&self, col: i32, row: i32) -> Hex {
        let x = self.x_of(col);
        let k = 1 - self.shifted_parity();
        match self.orientation {
            Orientation::FlatTop => Hex::new(x, row - (x + k).div_euclid(2)),
            Orientation::PointyTop => Hex::new(x - (row + k).div_euclid(2), row),
        }
    }

    /// The precomputed form of [`Numbering::hex_to_offset`].
    #[must_use]
    pub fn fast_layout(&self) -> FastLayout {
        let (lo, hi, _, _) = self.bounds();
        FastLayout {
            flat: self.orientation == Orientation::FlatTop,
            k: 1 - self.shifted_parity(),
            mirror: (self.columns == ColumnDirection::RightToLeft).then_some(lo + hi),
        }
    }

    /// The global printed (column, row) of a hex; no bounds check.
    #[must_use]
    pub fn hex_to_offset(&self, h: Hex) -> (i32, i32) {
        let k = 1 - self.shifted_parity();
        let (x, row) = match self.orientation {
            Orientation::FlatTop => (h.q, h.r + (h.q + k).div_euclid(2)),
            Orientation::PointyTop => (h.q + (h.r + k).div_euclid(2), h.r),
        };
        // x_of is its own inverse.
        (self.x_of(x), row)
    }

    fn form(&self) -> String {
        let d = "N".repeat(self.digits);
        let (a, b) = match self.order {
            DigitOrder::ColumnRow => ("column", "row"),
            DigitOrder::RowColumn => ("row", "column"),
        };
        let prefixes: Vec<&str> = self.sheets.iter().map(|s| s.prefix.as_str()).collect();
        let pre = if prefixes.is_empty() {
            String::new()
        } else {
            format!("[{}]", prefixes.join("|"))
        };
        format!("{pre}{d}{d} ({a} then {b})")
    }

    /// Parses a printed id into a hex, checking that it is on the map.
    ///
    /// ```
    /// use muster_interpreter::geom::numbering::Numbering;
    /// let n = Numbering::simple((1, 10), (1, 10));
    /// let h = n.parse("0102").unwrap();
    /// assert_eq!(n.format(h).unwrap(), "0102");
    /// assert!(n.parse("1102").is_err());
    /// ```
    pub fn parse(&self, id: &str) -> Result<Hex, IdError> {
        let malformed = || IdError::Malformed {
            id: id.to_string(),
            form: self.form(),
        };
        let split = id
            .find(|c: char| c.is_ascii_digit())
            .ok_or_else(malformed)?;
        let (prefix, digits) = id.split_at(split);
        if digits.len() != 2 * self.digits || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(malformed());
        }
        // Digits were checked above, so they fold into numbers without a fallible parse.
        let number = |d: &str| d.bytes().fold(0i32, |n, b| n * 10 + i32::from(b - b'0'));
        let first = number(&digits[..self.digits]);
        let second = number(&digits[self.digits..]);
        let (col, row) = match self.order {
            DigitOrder::ColumnRow => (first, second),
            DigitOrder::RowColumn => (second, first),
        };
        // Hex ids are parsed on every script call that names a hex: find the sheet without
        // building the sheet list.
        let one_sheet = Sheet {
            prefix: String::new(),
            columns: self.column_range,
            rows: self.row_range,
            offset: (0, 0),
        };
        let sheet = if self.sheets.is_empty() {
            Some(&one_sheet).filter(|_| prefix.is_empty())
        } else {
            self.sheets.iter().find(|s| s.prefix == prefix)
        }
        .ok_or_else(malformed)?;
        if !(sheet.columns.0..=sheet.columns.1).contains(&col)
            || !(sheet.rows.0..=sheet.rows.1).contains(&row)
        {
            return Err(IdError::OffMap(id.to_string()));
        }
        Ok(self.offset_to_hex(col + sheet.offset.0, row + sheet.offset.1))
    }

    /// Prints a hex's id, or `None` if it is off the map.
    #[must_use]
    pub fn format(&self, h: Hex) -> Option<String> {
        let (col, row) = self.hex_to_offset(h);
        self.format_offset(col, row)
    }

    /// Prints the id of global printed (column, row), or `None` if it is on no sheet.
    #[must_use]
    pub fn format_offset(&self, col: i32, row: i32) -> Option<String> {
        let (prefix, offset) = self.sheet_of(col, row)?;
        let (c, r) = (col - offset.0, row - offset.1);
        let (a, b) = match self.order {
            DigitOrder::ColumnRow => (c, r),
            DigitOrder::RowColumn => (r, c),
        };
        let w = self.digits;
        Some(format!("{prefix}{a:0w$}{b:0w$}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn two_sheets() -> Numbering {
        Numbering {
            sheets: vec![
                Sheet {
                    prefix: "N".into(),
                    columns: (1, 40),
                    rows: (1, 30),
                    offset: (0, 0),
                },
                Sheet {
                    prefix: "S".into(),
                    columns: (1, 40),
                    rows: (1, 30),
                    offset: (0, 30),
                },
            ],
            ..Numbering::simple((0, 0), (0, 0))
        }
    }

    #[test]
    fn odd_columns_shifted_down() {
        // An odd column's neighbours in the next column are rows R and R+1.
        let n = Numbering::simple((1, 40), (1, 40));
        let h = n.parse("1223").unwrap();
        assert_eq!(h.distance(n.parse("1324").unwrap()), 2);
        let a = n.parse("1621").unwrap();
        assert_eq!(a.distance(n.parse("1520").unwrap()), 1);
        assert_eq!(
            n.parse("1520").unwrap().distance(n.parse("1421").unwrap()),
            1
        );
        assert_eq!(
            n.parse("1521").unwrap().distance(n.parse("1622").unwrap()),
            1
        );
    }

    #[test]
    fn sheets_join() {
        let n = two_sheets();
        let north = n.parse("N1930").unwrap();
        let south = n.parse("S1901").unwrap();
        assert_eq!(north.distance(south), 1);
        assert_eq!(n.format(south).unwrap(), "S1901");
        assert!(matches!(n.parse("X1901"), Err(IdError::Malformed { .. })));
        assert!(matches!(n.parse("N4101"), Err(IdError::OffMap(_))));
    }

    #[test]
    fn columns_numbered_from_the_east() {
        // Rows first, columns 00 (east edge) to 41 (west edge).
        let n = Numbering {
            order: DigitOrder::RowColumn,
            columns: ColumnDirection::RightToLeft,
            ..Numbering::simple((0, 41), (1, 30))
        };
        let east = n.parse("1000").unwrap();
        let west = n.parse("1041").unwrap();
        assert!(east.q > west.q, "column 00 lies to the right of column 41");
        assert_eq!(n.format(east).unwrap(), "1000");
        assert_eq!(east.distance(n.parse("1001").unwrap()), 1);
    }

    #[test]
    fn malformed_ids() {
        let n = Numbering::simple((1, 10), (1, 10));
        for bad in ["", "12", "01a2", "010203", "A0102"] {
            assert!(
                matches!(n.parse(bad), Err(IdError::Malformed { .. })),
                "{bad}"
            );
        }
    }

    proptest! {
        #[test]
        fn ids_round_trip(col in 1i32..=40, row in 1i32..=30, south in any::<bool>(), pointy in any::<bool>(), even in any::<bool>(), rtl in any::<bool>()) {
            let mut n = two_sheets();
            if pointy { n.orientation = Orientation::PointyTop; }
            if even { n.shifted = Shifted::Even; }
            if rtl { n.columns = ColumnDirection::RightToLeft; }
            let id = format!("{}{col:02}{row:02}", if south { "S" } else { "N" });
            let h = n.parse(&id).unwrap();
            prop_assert_eq!(n.format(h).unwrap(), id);
        }

        #[test]
        fn printed_neighbours_are_adjacent(col in 2i32..=38, row in 2i32..=28, even in any::<bool>()) {
            // Up and down the same column is always adjacent.
            let mut n = Numbering::simple((1, 40), (1, 30));
            if even { n.shifted = Shifted::Even; }
            let a = n.offset_to_hex(col, row);
            prop_assert_eq!(a.distance(n.offset_to_hex(col, row + 1)), 1);
            prop_assert_eq!(a.distance(n.offset_to_hex(col + 1, row)), 1);
        }
    }
}
