//! Line of sight: a declarative evaluator over the [`line_trace`](crate::geom::hex::line_trace) of two hexes.
//!
//! Each ruleset states its rules in RON ([`LosRules`]): which terrain tags (or
//! units) block or obscure, relative to the firer's and target's elevations,
//! how many obscuring hexes make a block, and whether a line along a hexside
//! is judged by either or both hexes. Rules a table cannot express go in the
//! ruleset's Rhai hook `los_override`.

#[cfg(test)]
use crate::geom::hex::line_trace;
use crate::geom::hex::{Hex, LineIter, LineStep};
use crate::geom::map::Map;
use serde::{Deserialize, Serialize};

/// A ruleset's line-of-sight rules as written.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LosRules {
    /// The rules, each tested on every intervening hex.
    #[serde(default)]
    pub rules: Vec<LosRule>,
    /// How a line running exactly along a hexside is judged.
    #[serde(default)]
    pub hexside_pairs: PairRule,
}

/// How the two hexes either side of a line along a hexside combine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum PairRule {
    /// The line is affected only if both hexes affect it (the lesser effect counts).
    #[default]
    Both,
    /// The line is affected if either hex affects it (the more restrictive counts).
    Either,
}

/// What a rule does to the line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Effect {
    /// The hex obscures the line (the ruleset decides what that costs).
    Obscure,
    /// The hex blocks the line.
    #[default]
    Block,
}

/// Which hexes of the line a rule looks at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum AppliesTo {
    /// Intervening hexes only.
    #[default]
    Intervening,
    /// The target hex only.
    Target,
    /// Intervening hexes and the target hex.
    InterveningAndTarget,
}

/// A hex's height compared with the firer's and target's elevations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Height {
    /// Whatever its height.
    #[default]
    Any,
    /// Higher than both the firer and the target.
    AboveBoth,
    /// At least as high as the higher of the two.
    AtOrAboveBoth,
    /// Higher than the lower of the two.
    AboveLower,
    /// At least as high as the lower of the two.
    AtOrAboveLower,
    /// Lower than the higher of the two.
    BelowHigher,
    /// Lower than both.
    BelowBoth,
    /// At least as high as the higher of the two when they stand at different
    /// heights (never when they stand at the same height).
    AtOrAboveHigherUneven,
}

/// One line-of-sight rule. (`effect` is required in files; the `Default`
/// is for building rules in code.)
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LosRule {
    /// The rule applies to a hex with any of these terrain tags; empty means any hex.
    #[serde(default)]
    pub terrain: Vec<String>,
    /// The rule applies only where a unit stands.
    #[serde(default)]
    pub units: bool,
    /// The height test on the hex.
    #[serde(default)]
    pub height: Height,
    /// Added to the hex's elevation for the height test (the height of trees, say).
    #[serde(default)]
    pub obstacle: i32,
    /// What the rule does.
    pub effect: Effect,
    /// An obscuring rule turns into a block at this many hexes.
    #[serde(default)]
    pub block_at: Option<u32>,
    /// Which hexes it looks at.
    #[serde(default)]
    pub applies_to: AppliesTo,
    /// The words used for this rule in reasons; defaults to the terrain tags.
    #[serde(default)]
    pub reason: Option<String>,
}

/// The verdict of a line-of-sight check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Verdict {
    /// Nothing in the way.
    Clear,
    /// Seen, with each reason it is obscured.
    Obscured(Vec<String>),
    /// Not seen: the hex (or hexside pair) that blocks, and why.
    Blocked {
        /// The hex id, or `a/b` for a hexside pair.
        at: String,
        /// Why.
        reason: String,
    },
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verdict::Clear => write!(f, "clear"),
            Verdict::Obscured(r) => write!(f, "obscured ({})", r.join("; ")),
            Verdict::Blocked { at, reason } => write!(f, "blocked by {at} ({reason})"),
        }
    }
}

/// A verdict before it is put into words: which rule blocked at which step,
/// or which rules obscured at which steps.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// The rule (by index) and step that block, if any.
    pub blocked: Option<(usize, LineStep)>,
    /// The rules and steps that obscure.
    pub obscured: Vec<(usize, LineStep)>,
}

impl Judgement {
    /// Whether the line is clear.
    #[must_use]
    pub fn is_clear(&self) -> bool {
        self.blocked.is_none() && self.obscured.is_empty()
    }

    /// Whether the line is blocked.
    #[must_use]
    pub fn is_blocked(&self) -> bool {
        self.blocked.is_some()
    }

    /// Puts the judgement into words.
    #[must_use]
    pub fn describe(&self, ev: &LosEvaluator, map: &Map) -> Verdict {
        if let Some((ri, step)) = &self.blocked {
            return Verdict::Blocked {
                at: step_id(map, step),
                reason: reason_for(map, &ev.rules[*ri], step),
            };
        }
        if self.obscured.is_empty() {
            return Verdict::Clear;
        }
        Verdict::Obscured(
            self.obscured
                .iter()
                .map(|(ri, step)| {
                    format!(
                        "{} in {}",
                        reason_for(map, &ev.rules[*ri], step),
                        step_id(map, step)
                    )
                })
                .collect(),
        )
    }
}

/// A rule with its tag names turned into the map's bits.
#[derive(Clone, Debug)]
struct CompiledRule {
    mask: u64,
    any_terrain: bool,
    rule: LosRule,
    label: String,
}

/// Line-of-sight rules bound to one map, ready to evaluate quickly.
#[derive(Clone, Debug)]
pub struct LosEvaluator {
    rules: Vec<CompiledRule>,
    pairs: PairRule,
}

impl LosEvaluator {
    /// Binds rules to a map. Tags the map does not use never match.
    #[must_use]
    pub fn new(spec: &LosRules, map: &Map) -> Self {
        let rules = spec
            .rules
            .iter()
            .map(|r| CompiledRule {
                mask: map.tag_mask(&r.terrain),
                any_terrain: r.terrain.is_empty(),
                label: r.reason.clone().unwrap_or_else(|| {
                    if r.units {
                        "units".to_string()
                    } else if r.terrain.is_empty() {
                        "higher ground".to_string()
                    } else {
                        r.terrain.join("/")
                    }
                }),
                rule: r.clone(),
            })
            .collect();
        LosEvaluator {
            rules,
            pairs: spec.hexside_pairs,
        }
    }

    /// Judges the line from `from` to `to` and words the verdict.
    /// `occupied` says whether a unit stands in a hex (for rules with `units: true`).
    pub fn evaluate(
        &self,
        map: &Map,
        from: Hex,
        to: Hex,
        occupied: impl Fn(Hex) -> bool,
    ) -> Verdict {
        self.judge(map, from, to, occupied).describe(self, map)
    }

    /// Judges the line without wording it: the hot path, which allocates
    /// nothing unless the line is obscured.
    pub fn judge(
        &self,
        map: &Map,
        from: Hex,
        to: Hex,
        occupied: impl Fn(Hex) -> bool,
    ) -> Judgement {
        let (ef, et) = (map.elevation(from), map.elevation(to));
        let mut obscured = Vec::new();
        // Rule counts on the stack for the usual handful of rules.
        let mut small = [0u32; 16];
        let mut large = Vec::new();
        let counts: &mut [u32] = if self.rules.len() <= small.len() {
            &mut small[..self.rules.len()]
        } else {
            large.resize(self.rules.len(), 0);
            &mut large
        };
        let all = LineIter::new(from, to)
            .map(|s| (s, false))
            .chain(std::iter::once((LineStep::Hex(to), true)));
        for (step, is_target) in all {
            // Each hex of the step is looked up once, whatever the number of rules.
            let (first, second) = match step {
                LineStep::Hex(h) => ((h, map.tags_and_elevation(h)), None),
                LineStep::Pair(a, b) => (
                    (a, map.tags_and_elevation(a)),
                    Some((b, map.tags_and_elevation(b))),
                ),
            };
            for (ri, cr) in self.rules.iter().enumerate() {
                let wanted = match cr.rule.applies_to {
                    AppliesTo::Intervening => !is_target,
                    AppliesTo::Target => is_target,
                    AppliesTo::InterveningAndTarget => true,
                };
                if !wanted {
                    continue;
                }
                let hit =
                    |(h, cell): (Hex, (u64, i32))| hex_matches(cr, h, cell, ef, et, &occupied);
                let matched = match second {
                    None => hit(first),
                    Some(other) => match self.pairs {
                        PairRule::Both => hit(first) && hit(other),
                        PairRule::Either => hit(first) || hit(other),
                    },
                };
                if !matched {
                    continue;
                }
                counts[ri] += 1;
                let blocks = cr.rule.effect == Effect::Block
                    || cr.rule.block_at.is_some_and(|n| counts[ri] >= n);
                if blocks {
                    return Judgement {
                        blocked: Some((ri, step)),
                        obscured,
                    };
                }
                obscured.push((ri, step));
            }
        }
        Judgement {
            blocked: None,
            obscured,
        }
    }
}

fn hex_matches(
    cr: &CompiledRule,
    h: Hex,
    (tags, elevation): (u64, i32),
    ef: i32,
    et: i32,
    occupied: &impl Fn(Hex) -> bool,
) -> bool {
    if !cr.any_terrain && tags & cr.mask == 0 {
        return false;
    }
    if cr.rule.units && !occupied(h) {
        return false;
    }
    // In i64: an elevation and an obstacle are the data's numbers, each up to i32::MAX.
    let e = i64::from(elevation) + i64::from(cr.rule.obstacle);
    let (lo, hi) = (i64::from(ef.min(et)), i64::from(ef.max(et)));
    match cr.rule.height {
        Height::Any => true,
        Height::AboveBoth => e > hi,
        Height::AtOrAboveBoth => e >= hi,
        Height::AtOrAboveHigherUneven => lo < hi && e >= hi,
        Height::AboveLower => e > lo,
        Height::AtOrAboveLower => e >= lo,
        Height::BelowHigher => e < hi,
        Height::BelowBoth => e < lo,
    }
}

/// The words for a rule's effect on a step: its `reason`, or the terrain
/// tags of the step's hexes that the rule names.
fn reason_for(map: &Map, cr: &CompiledRule, step: &LineStep) -> String {
    if cr.rule.reason.is_some() || cr.any_terrain || cr.rule.units {
        return cr.label.clone();
    }
    let mut tags: Vec<&str> = Vec::new();
    for h in step.hexes() {
        for t in map.terrain(h) {
            if cr.rule.terrain.iter().any(|x| x == t) && !tags.contains(&t) {
                tags.push(t);
            }
        }
    }
    tags.join("/")
}

fn step_id(map: &Map, step: &LineStep) -> String {
    match *step {
        LineStep::Hex(h) => map.id(h),
        LineStep::Pair(a, b) => format!("{}/{}", map.id(a), map.id(b)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn map() -> Map {
        let text = r#"Map(
            name: "los",
            numbering: (column_range: (1, 6), row_range: (1, 5)),
            terrain_codes: {".": ["clear"], "f": ["forest"], "t": ["town"]},
            terrain: [". . . . . .", ". f . . . .", ". . . . . .", ". . f . . .", ". . . . . ."],
            elevation: ["0 0 0 0 0 0", "0 0 0 0 0 0", "0 0 2 0 0 0", "0 0 0 0 0 0", "0 0 0 0 0 0"],
        )"#;
        Map::from_str(text, Path::new("los.ron")).unwrap()
    }

    fn rules(pairs: PairRule) -> LosRules {
        LosRules {
            rules: vec![
                LosRule {
                    terrain: vec!["forest".into()],
                    effect: Effect::Block,
                    ..LosRule::default()
                },
                LosRule {
                    terrain: vec![],
                    height: Height::AboveBoth,
                    effect: Effect::Block,
                    ..LosRule::default()
                },
                LosRule {
                    terrain: vec![],
                    units: true,
                    effect: Effect::Obscure,
                    block_at: Some(2),
                    ..LosRule::default()
                },
            ],
            hexside_pairs: pairs,
        }
    }

    #[test]
    fn forest_blocks_and_hill_blocks() {
        let m = map();
        let ev = LosEvaluator::new(&rules(PairRule::Both), &m);
        let h = |id: &str| m.parse(id).unwrap();
        assert_eq!(
            ev.evaluate(&m, h("0201"), h("0203"), |_| false),
            Verdict::Blocked {
                at: "0202".into(),
                reason: "forest".into()
            }
        );
        assert_eq!(
            ev.evaluate(&m, h("0302"), h("0304"), |_| false).to_string(),
            "blocked by 0303 (higher ground)"
        );
        // 0102 to 0302 runs along the 0202/0203 side; only 0202 is forest.
        assert_eq!(
            ev.evaluate(&m, h("0102"), h("0302"), |_| false),
            Verdict::Clear
        );
        assert_eq!(
            ev.evaluate(&m, h("0101"), h("0601"), |_| false),
            Verdict::Clear
        );
    }

    #[test]
    fn units_obscure_then_block() {
        let m = map();
        let ev = LosEvaluator::new(&rules(PairRule::Both), &m);
        let h = |id: &str| m.parse(id).unwrap();
        let one = h("0201");
        assert_eq!(
            ev.evaluate(&m, h("0101"), h("0601"), |x| x == one),
            Verdict::Obscured(vec!["units in 0201".into()])
        );
        let two = h("0301");
        assert!(matches!(
            ev.evaluate(&m, h("0101"), h("0601"), |x| x == one || x == two),
            Verdict::Blocked { .. }
        ));
    }

    #[test]
    fn the_largest_elevation_and_obstacle_do_not_overflow() {
        let text = r#"Map(
            name: "high",
            numbering: (column_range: (1, 3), row_range: (1, 1)),
            terrain_codes: {".": ["clear"]},
            terrain: [". . ."],
            elevation: ["0 2147483647 0"],
        )"#;
        let m = Map::from_str(text, Path::new("high.ron")).unwrap();
        let tall = LosRules {
            rules: vec![LosRule {
                terrain: vec![],
                height: Height::AboveBoth,
                obstacle: i32::MAX,
                effect: Effect::Block,
                ..LosRule::default()
            }],
            hexside_pairs: PairRule::Both,
        };
        let ev = LosEvaluator::new(&tall, &m);
        let h = |id: &str| m.parse(id).unwrap();
        assert!(matches!(
            ev.evaluate(&m, h("0101"), h("0301"), |_| false),
            Verdict::Blocked { .. }
        ));
    }

    #[test]
    fn hexside_pairs_both_or_either() {
        let m = map();
        let h = |id: &str| m.parse(id).unwrap();
        // 0204 to 0404 runs along the side of 0303 (hill) and 0304 (forest).
        let trace = line_trace(h("0204"), h("0404"));
        assert!(matches!(trace[0], LineStep::Pair(..)), "{trace:?}");
        let only_forest = LosRules {
            rules: vec![rules(PairRule::Both).rules[0].clone()],
            hexside_pairs: PairRule::Both,
        };
        let ev = LosEvaluator::new(&only_forest, &m);
        assert_eq!(
            ev.evaluate(&m, h("0204"), h("0404"), |_| false),
            Verdict::Clear
        );
        let either = LosRules {
            hexside_pairs: PairRule::Either,
            ..only_forest
        };
        let ev = LosEvaluator::new(&either, &m);
        assert!(matches!(
            ev.evaluate(&m, h("0204"), h("0404"), |_| false),
            Verdict::Blocked { .. }
        ));
    }
}
