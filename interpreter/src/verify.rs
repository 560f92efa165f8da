//! Example files: run by `muster verify`.
