//! The unit library (spec §2, §10): every unit type a game can hold, with the fields the rules
//! read — cost, toughness, build time, blocking, fragile, frontline, spell, lifespan, charges,
//! healing, and the three scripts (on buy, on click, at the owner's turn start).
//!
//! The built-in library (`units.toml` beside this file: the 11 base-set units and the 93 of
//! the random pool) is our own conversion of the spec's unit tables. [`Library::parse`] reads
//! a library in the same format from any text, naming the unit and field of a fault.
//!
//! Format: one `[[unit]]` table per unit with `name` (display name), optional `key` (the
//! engine's internal name, also accepted by lookups), `set` (`base` or `pool`), `rarity`
//! (`legendary`, `rare`, `normal`, `trinket`: supply 1, 4, 10, 20 per player), `cost`, `hp`,
//! `build` (turns under construction; 0 = prompt) and the optional `blocks`, `fragile`,
//! `frontline`, `spell` (true/false), `lifespan`, `charges` (0 = none), `heal`, `heal_max`
//! (0 = up to `hp`). Scripts are sub-tables `[unit.buy]`, `[unit.click]`, `[unit.turn_start]`
//! with `cost` (a click's price), `hp_cost` (HP a click costs), `sacrifice` (`[{ unit, count }]`,
//! own units), `receive`, `create` (`[{ unit, count, build, lifespan?, owner? }]`, `owner =
//! "opponent"` for units given to the opponent), `destroy` (`[{ unit, count, owner, condition
//! = "not_blocking" }]`), `target` (`{ action = "chill", amount }`, `{ action = "snipe",
//! condition = "health_at_most", amount }` or `{ action = "snipe", condition = "tech" }`),
//! `resonate` / `gold_resonate` (+1 attack / +1 gold per own active unit of that name),
//! `exhaust` (turns the unit is delayed after the script) and `selfsac` (it dies after).
//! Resource lists are text: `3$ 1E` (gold, energy, blue, red, green, attack: `$ E B R G A`).

use std::collections::HashMap;
use std::sync::OnceLock;

use serde::Deserialize;

use super::resources::Resources;
use crate::error::{Error, Result};

/// Supply class of a buyable unit: how many copies each player may buy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rarity {
    /// 1 per player.
    Legendary,
    /// 4 per player.
    Rare,
    /// 10 per player.
    Normal,
    /// 20 per player.
    Trinket,
}

impl Rarity {
    /// Copies each player may buy.
    pub fn supply(self) -> u16 {
        match self {
            Rarity::Legendary => 1,
            Rarity::Rare => 4,
            Rarity::Normal => 10,
            Rarity::Trinket => 20,
        }
    }
}

/// Whether a unit is in every game's buy pool or drawn into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnitSet {
    /// In every game (the 11 base-set units).
    Base,
    /// In the random pool a game's set is drawn from.
    Pool,
}

/// A targeted click's effect (spec §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Adds this much chill to an enemy unit that can block.
    Chill(u16),
    /// Destroys an enemy unit with at most this much HP.
    SnipeHealthAtMost(u16),
    /// Destroys an enemy tech building (Animus, Blastforge or Conduit).
    SnipeTech,
}

/// Units a script creates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Create {
    /// The unit type (index in the library).
    pub unit: u16,
    /// How many.
    pub count: u16,
    /// Turns they start under construction (buy scripts) or delayed (other scripts).
    pub build: u16,
    /// Their lifespan, if not their type's.
    pub lifespan: Option<u16>,
    /// Given to the opponent instead of the owner.
    pub opponent: bool,
}

/// Units a script destroys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Destroy {
    /// The unit type (index in the library).
    pub unit: u16,
    /// How many.
    pub count: u16,
    /// The opponent's units instead of the owner's.
    pub opponent: bool,
    /// Only units that are not blocking.
    pub not_blocking: bool,
}

/// One of a unit's scripts (on buy, on click, at turn start).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Script {
    /// Resources paid (clicks).
    pub cost: Resources,
    /// HP paid (clicks); the unit dies at 0.
    pub hp_cost: u16,
    /// Own units sacrificed: (unit type, count).
    pub sacrifice: Vec<(u16, u16)>,
    /// Resources gained by the owner.
    pub receive: Resources,
    /// Units created.
    pub create: Vec<Create>,
    /// Units destroyed.
    pub destroy: Vec<Destroy>,
    /// The target a click then chooses.
    pub target: Option<Target>,
    /// +1 attack per own active unit of this type.
    pub resonate: Option<u16>,
    /// +1 gold per own active unit of this type.
    pub gold_resonate: Option<u16>,
    /// Own turns the unit is delayed after the script.
    pub exhaust: u16,
    /// The unit dies after the script.
    pub selfsac: bool,
}

/// A unit type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitType {
    /// Display name.
    pub name: String,
    /// The engine's internal name, where it differs.
    pub key: Option<String>,
    /// Base set or random pool.
    pub set: UnitSet,
    /// Supply class.
    pub rarity: Rarity,
    /// Price.
    pub cost: Resources,
    /// Starting and maximum HP.
    pub hp: u16,
    /// Turns under construction after purchase (0 = prompt).
    pub build: u16,
    /// Can block while its ability is unused this turn.
    pub blocks: bool,
    /// Damage persists.
    pub fragile: bool,
    /// The opponent may attack it during its action phase.
    pub frontline: bool,
    /// Runs its buy script and dies at once.
    pub spell: bool,
    /// Own turn starts it lives through once active (0 = unlimited).
    pub lifespan: u16,
    /// Clicks it has (0 = no charge limit).
    pub charges: u16,
    /// HP healed at each own turn start.
    pub heal: u16,
    /// Healing cap (0 = `hp`).
    pub heal_max: u16,
    /// Script run when bought.
    pub buy: Option<Script>,
    /// Ability run when clicked.
    pub click: Option<Script>,
    /// Script run at each own turn start while active.
    pub turn_start: Option<Script>,
    /// One of the tech buildings, Animus, Blastforge and Conduit (derived from the name).
    pub tech: bool,
}

/// A unit library: unit types by index, looked up by display or internal name.
#[derive(Clone, Debug, PartialEq)]
pub struct Library {
    units: Vec<UnitType>,
    by_name: HashMap<String, u16>,
}

impl Library {
    /// The built-in library: the base set and the random pool of the spec.
    pub fn builtin() -> &'static Library {
        static LIBRARY: OnceLock<Library> = OnceLock::new();
        LIBRARY.get_or_init(|| {
            Library::parse(include_str!("units.toml"), "units.toml")
                .expect("the built-in unit library is valid (tested)")
        })
    }

    /// Reads a library in the format of the [module docs](self) from `text` (`origin` names
    /// it in errors).
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `origin` with the line and column of a TOML error, or the unit
    /// (`unit[i] (name)`) and field of an invalid value, a duplicate name or a reference to a
    /// unit that is not in the library.
    pub fn parse(text: &str, origin: &str) -> Result<Library> {
        let file: FileLibrary = toml::from_str(text)
            .map_err(|e| Error::config(origin, e.to_string().trim_end().replace('\n', " ")))?;
        let mut by_name = HashMap::new();
        for (i, u) in file.unit.iter().enumerate() {
            for name in std::iter::once(&u.name).chain(&u.key) {
                if by_name.insert(name.clone(), i as u16).is_some() {
                    return Err(Error::config(
                        format!("{origin}: unit[{i}] ({}).name", u.name),
                        format!("the name `{name}` is used twice"),
                    ));
                }
            }
        }
        let units = file
            .unit
            .iter()
            .enumerate()
            .map(|(i, u)| {
                let at = |field: &str| format!("{origin}: unit[{i}] ({}).{field}", u.name);
                u.resolve(&by_name, &at)
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Library { units, by_name })
    }

    /// Every unit type, by index.
    pub fn units(&self) -> &[UnitType] {
        &self.units
    }

    /// The unit type with index `id`.
    pub fn get(&self, id: u16) -> &UnitType {
        &self.units[id as usize]
    }

    /// The index of the unit with display or internal name `name`.
    pub fn id(&self, name: &str) -> Option<u16> {
        self.by_name.get(name).copied()
    }

    /// The indices of the units of `set`, in library order.
    pub fn set(&self, set: UnitSet) -> Vec<u16> {
        (0..self.units.len() as u16)
            .filter(|&i| self.get(i).set == set)
            .collect()
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileLibrary {
    unit: Vec<FileUnit>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileUnit {
    name: String,
    key: Option<String>,
    set: String,
    rarity: String,
    cost: String,
    hp: u16,
    build: u16,
    #[serde(default)]
    blocks: bool,
    #[serde(default)]
    fragile: bool,
    #[serde(default)]
    frontline: bool,
    #[serde(default)]
    spell: bool,
    #[serde(default)]
    lifespan: u16,
    #[serde(default)]
    charges: u16,
    #[serde(default)]
    heal: u16,
    #[serde(default)]
    heal_max: u16,
    buy: Option<FileScript>,
    click: Option<FileScript>,
    turn_start: Option<FileScript>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileScript {
    #[serde(default)]
    cost: String,
    #[serde(default)]
    hp_cost: u16,
    #[serde(default)]
    sacrifice: Vec<FileCount>,
    #[serde(default)]
    receive: String,
    #[serde(default)]
    create: Vec<FileCreate>,
    #[serde(default)]
    destroy: Vec<FileDestroy>,
    target: Option<FileTarget>,
    resonate: Option<String>,
    gold_resonate: Option<String>,
    #[serde(default)]
    exhaust: u16,
    #[serde(default)]
    selfsac: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileCount {
    unit: String,
    count: u16,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileCreate {
    unit: String,
    count: u16,
    build: u16,
    lifespan: Option<u16>,
    owner: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDestroy {
    unit: String,
    count: u16,
    owner: String,
    condition: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileTarget {
    action: String,
    condition: Option<String>,
    amount: Option<u16>,
}

/// The field-naming function of one unit: `at("cost")` is `units.toml: unit[3] (Wall).cost`.
type At<'a> = &'a dyn Fn(&str) -> String;

impl FileUnit {
    fn resolve(&self, names: &HashMap<String, u16>, at: At<'_>) -> Result<UnitType> {
        let set = match self.set.as_str() {
            "base" => UnitSet::Base,
            "pool" => UnitSet::Pool,
            s => {
                return Err(Error::config(
                    at("set"),
                    format!("`{s}` is not base or pool"),
                ));
            }
        };
        let rarity = match self.rarity.as_str() {
            "legendary" => Rarity::Legendary,
            "rare" => Rarity::Rare,
            "normal" => Rarity::Normal,
            "trinket" => Rarity::Trinket,
            s => {
                return Err(Error::config(
                    at("rarity"),
                    format!("`{s}` is not legendary, rare, normal or trinket"),
                ));
            }
        };
        if self.hp == 0 {
            return Err(Error::config(at("hp"), "must be at least 1"));
        }
        if self.spell && self.build != 0 {
            return Err(Error::config(at("build"), "a spell is prompt (build = 0)"));
        }
        if self.heal_max != 0 && self.heal_max < self.hp {
            return Err(Error::config(at("heal_max"), "must be 0 or at least hp"));
        }
        let script = |s: &Option<FileScript>, kind: &str, allowed: &[&str]| {
            s.as_ref()
                .map(|s| s.resolve(names, &|f: &str| at(&format!("{kind}.{f}")), allowed))
                .transpose()
        };
        Ok(UnitType {
            name: self.name.clone(),
            key: self.key.clone(),
            set,
            rarity,
            cost: Resources::parse(&self.cost, &at("cost"))?,
            hp: self.hp,
            build: self.build,
            blocks: self.blocks,
            fragile: self.fragile,
            frontline: self.frontline,
            spell: self.spell,
            lifespan: self.lifespan,
            charges: self.charges,
            heal: self.heal,
            heal_max: self.heal_max,
            buy: script(&self.buy, "buy", &["sacrifice", "create"])?,
            click: script(&self.click, "click", &ALL_FIELDS)?,
            turn_start: script(
                &self.turn_start,
                "turn_start",
                &[
                    "receive",
                    "create",
                    "resonate",
                    "gold_resonate",
                    "exhaust",
                    "selfsac",
                ],
            )?,
            tech: matches!(self.name.as_str(), "Animus" | "Blastforge" | "Conduit"),
        })
    }
}

/// Every script field (a click may use them all).
const ALL_FIELDS: [&str; 11] = [
    "cost",
    "hp_cost",
    "sacrifice",
    "receive",
    "create",
    "destroy",
    "target",
    "resonate",
    "gold_resonate",
    "exhaust",
    "selfsac",
];

impl FileScript {
    /// The fields this script sets, by name.
    fn used(&self) -> Vec<&'static str> {
        let set = [
            !self.cost.trim().is_empty(),
            self.hp_cost != 0,
            !self.sacrifice.is_empty(),
            !self.receive.trim().is_empty(),
            !self.create.is_empty(),
            !self.destroy.is_empty(),
            self.target.is_some(),
            self.resonate.is_some(),
            self.gold_resonate.is_some(),
            self.exhaust != 0,
            self.selfsac,
        ];
        ALL_FIELDS
            .into_iter()
            .zip(set)
            .filter_map(|(f, on)| on.then_some(f))
            .collect()
    }

    fn resolve(
        &self,
        names: &HashMap<String, u16>,
        at: At<'_>,
        allowed: &[&str],
    ) -> Result<Script> {
        if let Some(f) = self.used().into_iter().find(|f| !allowed.contains(f)) {
            return Err(Error::config(at(f), "this script cannot have it"));
        }
        let unit = |name: &str, field: &str| {
            names.get(name).copied().ok_or_else(|| {
                Error::config(at(field), format!("`{name}` is not a unit of the library"))
            })
        };
        let count = |n: u16, field: &str| {
            if n == 0 {
                Err(Error::config(at(field), "count must be at least 1"))
            } else {
                Ok(n)
            }
        };
        let opponent = |owner: Option<&str>, field: &str| match owner {
            None | Some("own") => Ok(false),
            Some("opponent") => Ok(true),
            Some(o) => Err(Error::config(
                at(field),
                format!("owner `{o}` is not own or opponent"),
            )),
        };
        let sacrifice = self
            .sacrifice
            .iter()
            .map(|c| Ok((unit(&c.unit, "sacrifice")?, count(c.count, "sacrifice")?)))
            .collect::<Result<_>>()?;
        let create = self
            .create
            .iter()
            .map(|c| {
                Ok(Create {
                    unit: unit(&c.unit, "create")?,
                    count: count(c.count, "create")?,
                    build: c.build,
                    lifespan: c.lifespan,
                    opponent: opponent(c.owner.as_deref(), "create")?,
                })
            })
            .collect::<Result<_>>()?;
        let destroy = self
            .destroy
            .iter()
            .map(|d| {
                let not_blocking = match d.condition.as_deref() {
                    None => false,
                    Some("not_blocking") => true,
                    Some(c) => {
                        return Err(Error::config(
                            at("destroy"),
                            format!("condition `{c}` is not not_blocking"),
                        ));
                    }
                };
                Ok(Destroy {
                    unit: unit(&d.unit, "destroy")?,
                    count: count(d.count, "destroy")?,
                    opponent: opponent(Some(&d.owner), "destroy")?,
                    not_blocking,
                })
            })
            .collect::<Result<_>>()?;
        let target = self
            .target
            .as_ref()
            .map(|t| {
                let amount = || {
                    t.amount
                        .filter(|&a| a > 0)
                        .ok_or_else(|| Error::config(at("target"), "needs an amount of at least 1"))
                };
                match (t.action.as_str(), t.condition.as_deref()) {
                    ("chill", None) => Ok(Target::Chill(amount()?)),
                    ("snipe", Some("health_at_most")) => Ok(Target::SnipeHealthAtMost(amount()?)),
                    ("snipe", Some("tech")) => Ok(Target::SnipeTech),
                    (a, c) => Err(Error::config(
                        at("target"),
                        format!(
                            "action `{a}` with condition `{}` is not chill, snipe with \
                             health_at_most or snipe with tech",
                            c.unwrap_or("(none)")
                        ),
                    )),
                }
            })
            .transpose()?;
        Ok(Script {
            cost: Resources::parse(&self.cost, &at("cost"))?,
            hp_cost: self.hp_cost,
            sacrifice,
            receive: Resources::parse(&self.receive, &at("receive"))?,
            create,
            destroy,
            target,
            resonate: self
                .resonate
                .as_deref()
                .map(|n| unit(n, "resonate"))
                .transpose()?,
            gold_resonate: self
                .gold_resonate
                .as_deref()
                .map(|n| unit(n, "gold_resonate"))
                .transpose()?,
            exhaust: self.exhaust,
            selfsac: self.selfsac,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::prismata::Resource;
    use crate::games::prismata::test_support::lib;

    fn unit(name: &str) -> &'static UnitType {
        lib().get(lib().id(name).unwrap_or_else(|| panic!("no unit {name}")))
    }

    #[test]
    fn the_builtin_library_has_the_base_set_and_the_93_unit_pool() {
        assert_eq!(lib().set(UnitSet::Base).len(), 11);
        assert_eq!(lib().set(UnitSet::Pool).len(), 93);
        let base: Vec<&str> = lib()
            .set(UnitSet::Base)
            .into_iter()
            .map(|i| lib().get(i).name.as_str())
            .collect();
        assert_eq!(
            base,
            [
                "Drone",
                "Engineer",
                "Blastforge",
                "Animus",
                "Conduit",
                "Steelsplitter",
                "Wall",
                "Rhino",
                "Tarsier",
                "Forcefield",
                "Gauss Cannon"
            ]
        );
        // Internal names are accepted too.
        assert_eq!(lib().id("Brooder"), lib().id("Blastforge"));
        assert_eq!(lib().id("House"), lib().id("Husk"));
    }

    #[test]
    fn base_set_units_carry_the_spec_values() {
        let drone = unit("Drone");
        assert_eq!(drone.cost.to_string(), "3$ 1E");
        assert_eq!((drone.hp, drone.build, drone.blocks), (1, 1, true));
        assert_eq!(drone.rarity.supply(), 20);
        assert_eq!(drone.click.as_ref().unwrap().receive.get(Resource::Gold), 1);
        let rhino = unit("Rhino");
        assert_eq!((rhino.build, rhino.charges, rhino.blocks), (0, 2, true));
        let tarsier = unit("Tarsier");
        assert_eq!((tarsier.build, tarsier.blocks), (2, false));
        assert_eq!(
            tarsier.turn_start.as_ref().unwrap().receive.to_string(),
            "1A"
        );
        let forcefield = unit("Forcefield");
        assert!(forcefield.fragile);
        assert_eq!(
            forcefield.buy.as_ref().unwrap().sacrifice,
            [(lib().id("Drone").unwrap(), 1)]
        );
        assert_eq!(
            unit("Animus")
                .turn_start
                .as_ref()
                .unwrap()
                .receive
                .to_string(),
            "2R"
        );
    }

    #[test]
    fn pool_units_keep_every_kind_of_script() {
        let apollo = unit("Apollo").click.as_ref().unwrap();
        assert_eq!(apollo.target, Some(Target::SnipeHealthAtMost(3)));
        let driver = unit("Kinetic Driver").click.as_ref().unwrap();
        assert_eq!(
            (driver.target, driver.selfsac),
            (Some(Target::SnipeTech), true)
        );
        assert_eq!(driver.cost.to_string(), "3$");
        let pact = unit("Blood Pact");
        assert!(pact.spell && pact.build == 0);
        let creates = &pact.buy.as_ref().unwrap().create;
        assert_eq!((creates[0].count, creates[0].opponent), (4, false));
        assert_eq!(creates[1].unit, lib().id("Tarsier").unwrap());
        assert!(creates[1].opponent);
        let brooder = unit("Frost Brooder").turn_start.as_ref().unwrap();
        assert_eq!(brooder.create[0].lifespan, Some(3));
        let xaetron = unit("Xaetron");
        assert_eq!((xaetron.heal, xaetron.heal_max), (4, 12));
        assert_eq!(xaetron.click.as_ref().unwrap().hp_cost, 7);
        let savior = unit("Savior").turn_start.as_ref().unwrap();
        assert_eq!(savior.gold_resonate, lib().id("Drone"));
        let deadeye = unit("Deadeye Operative").click.as_ref().unwrap();
        assert_eq!(
            deadeye.destroy,
            [Destroy {
                unit: lib().id("Drone").unwrap(),
                count: 1,
                opponent: true,
                not_blocking: true
            }]
        );
        let chrono = unit("Chrono Filter").turn_start.as_ref().unwrap();
        assert_eq!(
            (chrono.receive.to_string().as_str(), chrono.exhaust),
            ("1B 1R", 2)
        );
        assert_eq!(unit("Arka Sodara").cost.to_string(), "7$ 2B 1R 7A");
    }

    #[test]
    fn bad_libraries_name_the_unit_and_field() {
        let wall = "[[unit]]\nname = \"Wall\"\nset = \"base\"\nrarity = \"normal\"\ncost = \"5$ 1B\"\nhp = 3\nbuild = 0\n";
        assert_eq!(Library::parse(wall, "t.toml").unwrap().units().len(), 1);
        for (extra, field, why) in [
            (
                "[unit.click]\nreceive = \"1Q\"\n",
                "unit[0] (Wall).click.receive",
                "1Q",
            ),
            (
                "[unit.buy]\nreceive = \"1$\"\n",
                "unit[0] (Wall).buy.receive",
                "cannot",
            ),
            (
                "[unit.click]\ncreate = [{ unit = \"Dragon\", count = 1, build = 1 }]\n",
                "unit[0] (Wall).click.create",
                "Dragon",
            ),
            (
                "[unit.click]\ntarget = { action = \"chill\" }\n",
                "unit[0] (Wall).click.target",
                "amount",
            ),
        ] {
            let e = Library::parse(&format!("{wall}{extra}"), "t.toml")
                .unwrap_err()
                .to_string();
            assert!(e.contains(field) && e.contains(why), "{e}");
        }
        let e = Library::parse(&wall.replace("normal", "common"), "t.toml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("unit[0] (Wall).rarity") && e.contains("common"),
            "{e}"
        );
        let e = Library::parse(&format!("{wall}{wall}"), "t.toml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("unit[1] (Wall).name") && e.contains("twice"),
            "{e}"
        );
        let e = Library::parse("[[unit]]\nname = 3\n", "t.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("t.toml") && e.contains("line"), "{e}");
    }
}
