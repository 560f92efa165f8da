//! Validation: `muster check`.
