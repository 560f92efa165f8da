//! Views of a game for people: the map and the units as SVG ([`svg`]), and as text around a
//! decision, with the terminal that shows it ([`text`]). A view reads a map, a
//! state and a [`crate::style::Style`]; it changes nothing and knows no game.

pub mod svg;
pub mod text;
