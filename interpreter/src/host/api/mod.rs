//! The script API: one documented Rhai package per topic, each a [`Module`] of functions that
//! scripts call on the game (`game.roll("d6")`, written `roll(game, "d6")` after desugaring).
//!
//! Invariant: every function is registered through `reg!` (or `reg_get!`) with its parameter
//! names and a doc comment saying what it does, what its parameters are and what it returns
//! (including what no answer looks like); `muster api` turns the same metadata into the
//! definition files and the reference, and a test fails when they drift.

/// Registers a function in a package: `reg!(module, name, &[params], &[doc lines], f)`, with
/// its parameters' names and its doc comment (see [`registration`]).
macro_rules! reg {
    ($m:expr, $name:expr, $params:expr, $doc:expr, $f:expr $(,)?) => {{
        let f = $f;
        $crate::host::api::registration(&f, $name, false, $params, $doc).set_into_module($m, f);
    }};
}

/// Registers a property getter in a package (`game.turn`), documented as [`reg!`] documents a
/// function.
macro_rules! reg_get {
    ($m:expr, $name:expr, $params:expr, $doc:expr, $f:expr $(,)?) => {{
        let f = $f;
        $crate::host::api::registration(&f, $name, true, $params, $doc).set_into_module($m, f);
    }};
}

pub mod decisions;
pub mod map;
pub mod search;
pub mod state;
pub mod tables;
pub mod units;

use crate::world::GameHandle;
use rhai::{Engine, FuncRegistration, Module, RhaiNativeFunc};

/// One package of the API: its name, its heading and introduction in the reference, and the
/// function that builds it.
#[derive(Clone, Copy, Debug)]
pub struct Package {
    /// The package's name (its file in `host/api/`).
    pub name: &'static str,
    /// Its heading in the reference.
    pub title: &'static str,
    /// What it is about, for the reference.
    pub about: &'static str,
    /// Builds the package.
    pub build: fn() -> Module,
}

/// Every package, in the order the reference lists them.
pub const PACKAGES: [Package; 6] = [
    Package {
        name: "state",
        title: state::TITLE,
        about: state::ABOUT,
        build: state::package,
    },
    Package {
        name: "units",
        title: units::TITLE,
        about: units::ABOUT,
        build: units::package,
    },
    Package {
        name: "map",
        title: map::TITLE,
        about: map::ABOUT,
        build: map::package,
    },
    Package {
        name: "search",
        title: search::TITLE,
        about: search::ABOUT,
        build: search::package,
    },
    Package {
        name: "tables",
        title: tables::TITLE,
        about: tables::ABOUT,
        build: tables::package,
    },
    Package {
        name: "decisions",
        title: decisions::TITLE,
        about: decisions::ABOUT,
        build: decisions::package,
    },
];

/// Registers the types scripts hold (`Game`, `HexSet`, `MoveRank`) under their script names.
pub fn register_types(engine: &mut Engine) {
    engine.register_type_with_name::<GameHandle>("Game");
    engine.register_type_with_name::<decisions::MoveRank>("MoveRank");
    engine.register_type_with_name::<crate::host::args::HexSet>("HexSet");
}

/// Registers the whole script API on the engine: the types, then every package, combined into
/// one global module (its functions callable without a namespace; one table for Rhai to look a
/// call up in rather than one per package).
pub fn register(engine: &mut Engine) {
    register_types(engine);
    let mut api = Module::new();
    for p in PACKAGES {
        api.combine((p.build)());
    }
    engine.register_global_module(api.into());
}

/// The parameter information the metadata keeps for `FUNC`: each of `params` with its Rust type,
/// then the type it returns to the script (`()` for nothing; the `Ok` type of a fallible one).
fn params_info<A: 'static, const N: usize, const X: bool, R: 'static, const F: bool, FUNC>(
    name: &str,
    params: &[&str],
) -> Vec<String>
where
    FUNC: RhaiNativeFunc<A, N, X, R, F>,
{
    let types = FUNC::param_names();
    assert_eq!(
        params.len(),
        N,
        "`{name}` takes {N} parameters; its registration names {}",
        params.len()
    );
    let mut info: Vec<String> = params
        .iter()
        .zip(types)
        .map(|(p, t)| format!("{p}: {t}"))
        .collect();
    // A fallible function returns its `Ok` type to the script.
    let returned = if F {
        std::any::type_name::<R>()
    } else {
        FUNC::return_type_name()
    };
    info.push(returned.to_string());
    info
}

/// The doc comment of a registered function: each line of `doc` as a `///` line.
fn comment(doc: &[&str]) -> String {
    doc.iter()
        .map(|l| format!("/// {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The registration of the script function `name` (the getter of property `name` when
/// `getter`) for `f`: its parameters' names and types and its doc comment (one line per entry of
/// `doc`). Used through `reg!` and `reg_get!`.
#[must_use]
pub fn registration<A: 'static, const N: usize, const X: bool, R: 'static, const F: bool, FUNC>(
    _: &FUNC,
    name: &str,
    getter: bool,
    params: &[&str],
    doc: &[&str],
) -> FuncRegistration
where
    FUNC: RhaiNativeFunc<A, N, X, R, F>,
{
    let r = if getter {
        FuncRegistration::new_getter(name)
    } else {
        FuncRegistration::new(name).in_global_namespace()
    };
    r.with_params_info(params_info::<A, N, X, R, F, FUNC>(name, params))
        .with_comments([comment(doc)])
}
