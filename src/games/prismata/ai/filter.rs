//! Unit filters (C++ `CardFilter.cpp`, `CardFilterCondition.cpp`): which unit types a partial
//! player leaves alone. A filter excludes a type if
//! - `default` is true, or the type is named in `cards`, or
//! - one of its `conditions` holds for the type (an OR of ANDs over type properties such as
//!   `["lifespan", "=", 1]`), worked out once per library when the filter is built, or
//! - one of its `state_conditions` holds now (an OR of ANDs that may also count the player's
//!   units, such as "Amporilla while I own fewer than 3 Tarsiers":
//!   `[["cardName", "=", "Amporilla"], ["Tarsier", "<", 3]]`).
//!
//! `allow_resonate` asks buying players to let through a type that would resonate with a unit
//! the player owns (the filter itself does not look at it).
//!
//! Where we differ from the C++:
//! - Names are checked when the filter is built: an unknown property, operator, unit name or a
//!   value of the wrong kind is an [`Error::Config`] naming the field (the C++ skips unknown unit
//!   names in `cards` and lets unknown properties assert later).
//! - `conditions` hold only type properties (they are evaluated without a state); a state
//!   condition may hold type properties too (the C++ asserts on them). `cardName` compares
//!   with `=` and `!=` only (the C++ also orders unit ids, which mean nothing across libraries).
//! - A condition's unit count is of the deciding player's live units (the C++ counts the active
//!   player's, the same player whenever a partial player asks).

use serde::Deserialize;

use crate::error::{Error, Result};
use crate::games::prismata::library::Script;
use crate::games::prismata::{Library, Resource, State, UnitType};

use super::partial::UnitFilter;

/// A comparison operator of a condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `<=`
    Le,
    /// `>=`
    Ge,
}

impl Op {
    fn parse(text: &str) -> Option<Op> {
        Some(match text {
            "=" => Op::Eq,
            "!=" => Op::Ne,
            "<" => Op::Lt,
            ">" => Op::Gt,
            "<=" => Op::Le,
            ">=" => Op::Ge,
            _ => return None,
        })
    }

    /// `lhs op rhs`.
    pub fn holds<T: PartialOrd>(self, lhs: T, rhs: T) -> bool {
        match self {
            Op::Eq => lhs == rhs,
            Op::Ne => lhs != rhs,
            Op::Lt => lhs < rhs,
            Op::Gt => lhs > rhs,
            Op::Le => lhs <= rhs,
            Op::Ge => lhs >= rhs,
        }
    }
}

/// A numeric property of a unit type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntProperty {
    /// `lifespan`: own turn starts it lives through once active (0 = unlimited).
    Lifespan,
    /// `constructionTime`: turns under construction after purchase.
    ConstructionTime,
    /// `startingHealth`: HP when bought.
    StartingHealth,
    /// `attackProduced`: attack its click and its turn start make (resonance aside).
    AttackProduced,
    /// `abilityAttack`: attack its click makes.
    AbilityAttack,
    /// `beginTurnAttack`: attack its turn start makes (resonance aside).
    BeginTurnAttack,
}

impl IntProperty {
    /// The property of type `t`.
    pub fn of(self, t: &UnitType) -> i64 {
        let attack = |s: &Option<Script>| {
            s.as_ref()
                .map_or(0, |s| i64::from(s.receive.get(Resource::Attack)))
        };
        match self {
            IntProperty::Lifespan => i64::from(t.lifespan),
            IntProperty::ConstructionTime => i64::from(t.build),
            IntProperty::StartingHealth => i64::from(t.hp),
            IntProperty::AttackProduced => attack(&t.click) + attack(&t.turn_start),
            IntProperty::AbilityAttack => attack(&t.click),
            IntProperty::BeginTurnAttack => attack(&t.turn_start),
        }
    }
}

/// A yes/no property of a unit type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoolProperty {
    /// `isBlocker`: blocks while its ability is unused.
    IsBlocker,
    /// `hasAbility`: its click has an effect besides a target (gains, creates, destroys,
    /// resonates or kills the unit). As in the C++, a click that only chills or snipes does
    /// not count: Shiver Yeti has no ability in this sense.
    HasAbility,
    /// `hasBeginTurnAbility`: its turn-start script has such an effect.
    HasBeginTurnAbility,
}

impl BoolProperty {
    /// The property of type `t`.
    pub fn of(self, t: &UnitType) -> bool {
        match self {
            BoolProperty::IsBlocker => t.blocks,
            BoolProperty::HasAbility => t.click.as_ref().is_some_and(has_effect),
            BoolProperty::HasBeginTurnAbility => t.turn_start.as_ref().is_some_and(has_effect),
        }
    }
}

/// True if a script does something besides paying a cost and choosing a target (the C++
/// `Script::hasEffect`).
fn has_effect(s: &Script) -> bool {
    !s.receive.is_empty()
        || !s.create.is_empty()
        || !s.destroy.is_empty()
        || s.resonate.is_some()
        || s.gold_resonate.is_some()
        || s.selfsac
}

/// The right-hand side of a unit-count condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// A number.
    Number(i64),
    /// How many units of this type (library id) the player owns.
    Owned(u16),
}

/// One condition of a filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Condition {
    /// A numeric type property compared with a number.
    Int(IntProperty, Op, i64),
    /// A yes/no type property compared with a value.
    Bool(BoolProperty, Op, bool),
    /// `cardName`: the type is (`=`) or is not (`!=`) this one (library id).
    Name(Op, u16),
    /// How many units of a type (library id) the player owns, compared with a count.
    Owned(u16, Op, Count),
}

impl Condition {
    /// True if the condition holds for type `kind` of player `p` in `s`; `s` is needed only by
    /// [`Condition::Owned`].
    fn holds(&self, library: &Library, s: Option<(&State, usize)>, kind: u16) -> bool {
        match *self {
            Condition::Int(prop, op, v) => op.holds(prop.of(library.get(kind)), v),
            Condition::Bool(prop, op, v) => op.holds(prop.of(library.get(kind)), v),
            Condition::Name(op, other) => op.holds(kind, other),
            Condition::Owned(of, op, rhs) => {
                let Some((s, p)) = s else { return false };
                let rhs = match rhs {
                    Count::Number(n) => n,
                    Count::Owned(k) => i64::from(count_owned(s, p, k)),
                };
                op.holds(i64::from(count_owned(s, p, of)), rhs)
            }
        }
    }

    fn needs_state(&self) -> bool {
        matches!(self, Condition::Owned(..) | Condition::Name(..))
    }
}

/// The live units of type `kind` player `p` owns (the C++ `numCardsOfType`).
pub fn count_owned(s: &State, p: usize, kind: u16) -> u16 {
    s.sides[p]
        .units
        .iter()
        .filter(|u| u.alive && u.kind == kind)
        .count() as u16
}

/// The right-hand side of a condition as written in a config: a number, a yes/no or a unit
/// name.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum ConditionValue {
    /// `true` / `false`.
    Bool(bool),
    /// A number.
    Int(i64),
    /// A unit name.
    Name(String),
}

/// A condition as written in a config: `[property or unit name, operator, value]`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct ConditionSpec(pub String, pub String, pub ConditionValue);

/// A filter as written in a config (the C++ JSON object, same field names).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FilterSpec {
    /// Excludes every type.
    #[serde(default)]
    pub default: bool,
    /// Types excluded by name.
    #[serde(default)]
    pub cards: Vec<String>,
    /// Buying players may still buy an excluded type that resonates with a unit they own.
    #[serde(default, alias = "allowResonate")]
    pub allow_resonate: bool,
    /// Type conditions: a type is excluded if every condition of one inner list holds.
    #[serde(default)]
    pub conditions: Vec<Vec<ConditionSpec>>,
    /// State conditions, evaluated when asked.
    #[serde(default, alias = "stateConditions")]
    pub state_conditions: Vec<Vec<ConditionSpec>>,
    /// Another filter whose exclusions are added to this one's; resolved by the config layer
    /// ([`CardFilter::add`]), ignored by [`CardFilter::new`].
    #[serde(default)]
    pub include: Option<String>,
}

/// A unit filter (C++ `CardFilter`); see the [module docs](self).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CardFilter {
    /// Excluded whatever the state, by library id (from `default`, `cards` and the type
    /// conditions). Empty: nothing excluded this way.
    pub excluded: Vec<bool>,
    /// Let resonating types through (read by the buying players).
    pub allow_resonate: bool,
    /// The type conditions (already folded into `excluded`; kept for [`CardFilter::add`]).
    pub conditions: Vec<Vec<Condition>>,
    /// The state conditions.
    pub state_conditions: Vec<Vec<Condition>>,
}

impl CardFilter {
    /// The filter `spec` describes, for the units of `library`. `field` names the filter in
    /// errors (e.g. `filters.BuyGK_Filter`).
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming the field (`field.cards[i]`, `field.conditions[i][j]`, …) of an
    /// unknown unit name, property or operator, or of a value of the wrong kind.
    pub fn new(library: &Library, spec: &FilterSpec, field: &str) -> Result<CardFilter> {
        let n = library.units().len();
        let mut excluded = vec![spec.default; n];
        for (i, name) in spec.cards.iter().enumerate() {
            excluded[unit_id(library, name, &format!("{field}.cards[{i}]"))? as usize] = true;
        }
        let conditions = parse_lists(library, &spec.conditions, &format!("{field}.conditions"))?;
        for (i, list) in conditions.iter().enumerate() {
            if let Some(j) = list.iter().position(Condition::needs_state) {
                return Err(Error::config(
                    format!("{field}.conditions[{i}][{j}]"),
                    "a type condition cannot name a unit; put it in stateConditions",
                ));
            }
        }
        let state_conditions = parse_lists(
            library,
            &spec.state_conditions,
            &format!("{field}.stateConditions"),
        )?;
        let mut filter = CardFilter {
            excluded,
            allow_resonate: spec.allow_resonate,
            conditions: Vec::new(),
            state_conditions,
        };
        filter.add_type_conditions(library, conditions);
        Ok(filter)
    }

    /// Adds `other`'s exclusions to this filter (C++ `addFilter`, a config's `include`): the
    /// union of the excluded types and of the state conditions. `allow_resonate` stays this
    /// filter's.
    pub fn add(&mut self, library: &Library, other: &CardFilter) {
        let n = library.units().len();
        if self.excluded.len() < n {
            self.excluded.resize(n, false);
        }
        for (mine, &theirs) in self.excluded.iter_mut().zip(&other.excluded) {
            *mine |= theirs;
        }
        self.add_type_conditions(library, other.conditions.clone());
        self.state_conditions
            .extend(other.state_conditions.iter().cloned());
    }

    fn add_type_conditions(&mut self, library: &Library, conditions: Vec<Vec<Condition>>) {
        if conditions.is_empty() {
            return;
        }
        let n = library.units().len();
        if self.excluded.len() < n {
            self.excluded.resize(n, false);
        }
        for kind in 0..n as u16 {
            if conditions
                .iter()
                .any(|list| list.iter().all(|c| c.holds(library, None, kind)))
            {
                self.excluded[kind as usize] = true;
            }
        }
        self.conditions.extend(conditions);
    }

    /// True if `kind` is excluded for player `p` in `s` (C++ `CardFilter::evaluate`).
    pub fn evaluate(&self, library: &Library, s: &State, p: usize, kind: u16) -> bool {
        self.excluded.get(kind as usize).copied().unwrap_or(false)
            || self
                .state_conditions
                .iter()
                .any(|list| list.iter().all(|c| c.holds(library, Some((s, p)), kind)))
    }
}

impl UnitFilter for CardFilter {
    fn excludes(&self, library: &Library, state: &State, player: usize, kind: u16) -> bool {
        self.evaluate(library, state, player, kind)
    }
}

fn unit_id(library: &Library, name: &str, field: &str) -> Result<u16> {
    library
        .id(name)
        .ok_or_else(|| Error::config(field, format!("no unit named `{name}`")))
}

fn parse_lists(
    library: &Library,
    lists: &[Vec<ConditionSpec>],
    field: &str,
) -> Result<Vec<Vec<Condition>>> {
    lists
        .iter()
        .enumerate()
        .map(|(i, list)| {
            list.iter()
                .enumerate()
                .map(|(j, c)| parse_condition(library, c, &format!("{field}[{i}][{j}]")))
                .collect()
        })
        .collect()
}

fn parse_condition(library: &Library, spec: &ConditionSpec, field: &str) -> Result<Condition> {
    let ConditionSpec(lhs, op_text, value) = spec;
    let op = Op::parse(op_text).ok_or_else(|| {
        Error::config(
            field,
            format!("unknown operator `{op_text}` (=, !=, <, >, <=, >=)"),
        )
    })?;
    let wrong = |want: &str| Error::config(field, format!("`{lhs}` compares with {want}"));
    let int_prop = match lhs.as_str() {
        "lifespan" => Some(IntProperty::Lifespan),
        "constructionTime" => Some(IntProperty::ConstructionTime),
        "startingHealth" => Some(IntProperty::StartingHealth),
        "attackProduced" => Some(IntProperty::AttackProduced),
        "abilityAttack" => Some(IntProperty::AbilityAttack),
        "beginTurnAttack" => Some(IntProperty::BeginTurnAttack),
        _ => None,
    };
    if let Some(prop) = int_prop {
        let ConditionValue::Int(v) = value else {
            return Err(wrong("a number"));
        };
        return Ok(Condition::Int(prop, op, *v));
    }
    let bool_prop = match lhs.as_str() {
        "isBlocker" => Some(BoolProperty::IsBlocker),
        "hasAbility" => Some(BoolProperty::HasAbility),
        "hasBeginTurnAbility" => Some(BoolProperty::HasBeginTurnAbility),
        _ => None,
    };
    if let Some(prop) = bool_prop {
        let ConditionValue::Bool(v) = value else {
            return Err(wrong("true or false"));
        };
        return Ok(Condition::Bool(prop, op, *v));
    }
    if lhs == "cardName" {
        let ConditionValue::Name(name) = value else {
            return Err(wrong("a unit name"));
        };
        if !matches!(op, Op::Eq | Op::Ne) {
            return Err(Error::config(
                field,
                "`cardName` compares with = or != only",
            ));
        }
        return Ok(Condition::Name(op, unit_id(library, name, field)?));
    }
    let Some(of) = library.id(lhs) else {
        return Err(Error::config(
            field,
            format!(
                "`{lhs}` is neither a property (lifespan, constructionTime, startingHealth, \
                 attackProduced, abilityAttack, beginTurnAttack, isBlocker, hasAbility, \
                 hasBeginTurnAbility, cardName) nor a unit name"
            ),
        ));
    };
    let rhs = match value {
        ConditionValue::Int(n) => Count::Number(*n),
        ConditionValue::Name(name) => Count::Owned(unit_id(library, name, field)?),
        ConditionValue::Bool(_) => return Err(wrong("a number or a unit name")),
    };
    Ok(Condition::Owned(of, op, rhs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::Level;
    use crate::games::prismata::ai::testing::{id, lib};

    fn spec(json: &str) -> FilterSpec {
        serde_json::from_str(json).unwrap()
    }

    /// The shipped `BuyGK_Filter` (less Overwork, which our library lacks).
    const BUY_GK: &str = r#"{"default": false,
        "cards": ["Drone", "Engineer", "Conduit", "Animus", "Blastforge", "Auric Impulse",
                  "Auride Core", "Thermite Core", "Blood Pact", "Ossified Drone", "Steelforge"],
        "allowResonate": true,
        "conditions": [[["lifespan", "=", 1]],
                       [["isBlocker", "=", true], ["constructionTime", "=", 0],
                        ["hasAbility", "=", false], ["attackProduced", "=", 0]]],
        "stateConditions": [[["cardName", "=", "Amporilla"], ["Tarsier", "<", 3]],
                            [["cardName", "=", "Savior"], ["Drone", "<", 12]]]}"#;

    #[test]
    fn type_conditions_exclude_named_units_and_pure_walls() {
        let f = CardFilter::new(lib(), &spec(BUY_GK), "f").unwrap();
        let s = State::new(lib(), &Level::load(lib(), "units:Amporilla").unwrap());
        let ex = |name: &str| f.excludes(lib(), &s, 0, id(name));
        assert!(ex("Drone") && ex("Blastforge"), "named");
        assert!(
            ex("Wall") && ex("Shiver Yeti"),
            "prompt blockers without ability or attack"
        );
        assert!(ex("Barrier") && ex("Plexo Cell"), "lifespan 1");
        assert!(ex("Forcefield"));
        assert!(!ex("Tarsier") && !ex("Rhino") && !ex("Steelsplitter"));
        assert!(f.allow_resonate);
    }

    #[test]
    fn state_conditions_count_the_players_units() {
        let f = CardFilter::new(lib(), &spec(BUY_GK), "f").unwrap();
        let mut s = State::new(lib(), &Level::load(lib(), "units:Amporilla").unwrap());
        let amporilla = id("Amporilla");
        assert!(f.excludes(lib(), &s, 0, amporilla), "no Tarsier yet");
        for _ in 0..3 {
            s.add_unit(lib(), 0, id("Tarsier"), 1, 0);
        }
        assert!(!f.excludes(lib(), &s, 0, amporilla), "three Tarsiers");
        assert!(
            f.excludes(lib(), &s, 1, amporilla),
            "the other player has none"
        );
        assert!(f.excludes(lib(), &s, 0, id("Savior")), "only 6 Drones");
        assert!(!f.excludes(lib(), &s, 0, id("Tarsier")));
    }

    #[test]
    fn default_true_excludes_everything_and_the_empty_filter_nothing() {
        let s = State::new(lib(), &Level::load(lib(), "units:Amporilla").unwrap());
        let all = CardFilter::new(lib(), &spec(r#"{"default": true}"#), "f").unwrap();
        let none = CardFilter::default();
        for k in 0..lib().units().len() as u16 {
            assert!(all.excludes(lib(), &s, 0, k));
            assert!(!none.excludes(lib(), &s, 0, k));
        }
    }

    #[test]
    fn an_included_filter_adds_its_exclusions() {
        let s = State::new(lib(), &Level::load(lib(), "units:Amporilla").unwrap());
        let mut f = CardFilter::new(lib(), &spec(r#"{"cards": ["Drone"]}"#), "f").unwrap();
        let g = CardFilter::new(
            lib(),
            &spec(r#"{"conditions": [[["beginTurnAttack", ">", 0]]]}"#),
            "g",
        )
        .unwrap();
        assert!(!f.excludes(lib(), &s, 0, id("Tarsier")));
        f.add(lib(), &g);
        assert!(f.excludes(lib(), &s, 0, id("Tarsier")) && f.excludes(lib(), &s, 0, id("Drone")));
        assert!(
            !f.excludes(lib(), &s, 0, id("Rhino")),
            "Rhino attacks by clicking"
        );
    }

    #[test]
    fn unknown_names_and_wrong_values_name_the_field() {
        let err = |json: &str| match CardFilter::new(lib(), &spec(json), "filters.x") {
            Err(Error::Config { field, .. }) => field,
            other => panic!("expected a config error, got {other:?}"),
        };
        assert_eq!(
            err(r#"{"cards": ["Drone", "Nobody"]}"#),
            "filters.x.cards[1]"
        );
        assert_eq!(
            err(r#"{"conditions": [[["lifespan", "=", 1]], [["colour", "=", 1]]]}"#),
            "filters.x.conditions[1][0]"
        );
        assert_eq!(
            err(r#"{"conditions": [[["lifespan", "~", 1]]]}"#),
            "filters.x.conditions[0][0]"
        );
        assert_eq!(
            err(r#"{"conditions": [[["isBlocker", "=", 1]]]}"#),
            "filters.x.conditions[0][0]"
        );
        assert_eq!(
            err(r#"{"conditions": [[["Drone", ">", 1]]]}"#),
            "filters.x.conditions[0][0]",
            "counts need a state"
        );
        assert_eq!(
            err(r#"{"stateConditions": [[["cardName", "=", "Nobody"]]]}"#),
            "filters.x.stateConditions[0][0]"
        );
        assert!(serde_json::from_str::<FilterSpec>(r#"{"card": []}"#).is_err());
    }
}
