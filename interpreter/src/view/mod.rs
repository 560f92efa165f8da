//! Views of a game for people: the map and the units as SVG ([`svg`]). A view reads a map, a
//! state and a [`crate::style::Style`]; it changes nothing and knows no game.

pub mod svg;
