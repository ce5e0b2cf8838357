//! Goods, island tiles, buildings (spec §1.3 as const data), roles and the action encoding
//! (spec §4): a 3-byte `Copy` action holding its kind, its payload and the ends-turn bit.

/// Number of kinds of goods (and of crops).
pub const GOODS: usize = 5;
/// Goods in value order (spec §1.1): corn < indigo < sugar < tobacco < coffee.
pub const CORN: u8 = 0;
/// Indigo.
pub const INDIGO: u8 = 1;
/// Sugar.
pub const SUGAR: u8 = 2;
/// Tobacco.
pub const TOBACCO: u8 = 3;
/// Coffee.
pub const COFFEE: u8 = 4;
/// Island tile index of quarries (crops are 0..5, as goods).
pub const QUARRY: u8 = 5;
/// Names of goods, by index.
pub const GOOD_NAMES: [&str; GOODS] = ["corn", "indigo", "sugar", "tobacco", "coffee"];
/// Trader prices of goods, by index (spec §2.7).
pub const PRICES: [u16; GOODS] = [0, 1, 2, 3, 4];

/// Spaces on an island and in a city.
pub const SPACES: u8 = 12;

/// What a building is (spec §1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildingKind {
    /// Produces the given good with the matching crop in the craftsman phase.
    Production(u8),
    /// A violet building on one city space.
    SmallViolet,
    /// A violet building on two city spaces, scoring a bonus at the end when occupied.
    Large,
}

/// One row of the building table.
#[derive(Clone, Copy, Debug)]
pub struct BuildingType {
    /// Label name (`small_indigo_plant`).
    pub name: &'static str,
    /// What it is.
    pub kind: BuildingKind,
    /// Printed price.
    pub cost: u8,
    /// Printed victory points (also its column: the quarry discount cap).
    pub vp: u8,
    /// Colonist circles.
    pub slots: u8,
    /// Copies with 3–5 players.
    pub copies: u8,
    /// Copies with 2 players.
    pub copies_2p: u8,
}

impl BuildingType {
    /// City spaces used (2 for large buildings).
    pub const fn size(&self) -> u8 {
        match self.kind {
            BuildingKind::Large => 2,
            _ => 1,
        }
    }
}

const fn b(
    name: &'static str,
    kind: BuildingKind,
    cost: u8,
    vp: u8,
    slots: u8,
    copies: u8,
    copies_2p: u8,
) -> BuildingType {
    BuildingType {
        name,
        kind,
        cost,
        vp,
        slots,
        copies,
        copies_2p,
    }
}

use BuildingKind::{Large, Production as P, SmallViolet as V};

/// Number of building types.
pub const BUILDINGS: usize = 23;

/// The building table of spec §1.3, indexed by building id.
pub const BUILDING_TABLE: [BuildingType; BUILDINGS] = [
    b("small_indigo_plant", P(INDIGO), 1, 1, 1, 4, 2),
    b("small_sugar_mill", P(SUGAR), 2, 1, 1, 4, 2),
    b("indigo_plant", P(INDIGO), 3, 2, 3, 3, 2),
    b("sugar_mill", P(SUGAR), 4, 2, 3, 3, 2),
    b("tobacco_storage", P(TOBACCO), 5, 3, 3, 3, 2),
    b("coffee_roaster", P(COFFEE), 6, 3, 2, 3, 2),
    b("small_market", V, 1, 1, 1, 2, 1),
    b("hacienda", V, 2, 1, 1, 2, 1),
    b("construction_hut", V, 2, 1, 1, 2, 1),
    b("small_warehouse", V, 3, 1, 1, 2, 1),
    b("hospice", V, 4, 2, 1, 2, 1),
    b("office", V, 5, 2, 1, 2, 1),
    b("large_market", V, 5, 2, 1, 2, 1),
    b("large_warehouse", V, 6, 2, 1, 2, 1),
    b("factory", V, 7, 3, 1, 2, 1),
    b("university", V, 8, 3, 1, 2, 1),
    b("harbor", V, 8, 3, 1, 2, 1),
    b("wharf", V, 9, 3, 1, 2, 1),
    b("guild_hall", Large, 10, 4, 1, 1, 1),
    b("residence", Large, 10, 4, 1, 1, 1),
    b("fortress", Large, 10, 4, 1, 1, 1),
    b("customs_house", Large, 10, 4, 1, 1, 1),
    b("city_hall", Large, 10, 4, 1, 1, 1),
];

/// Building ids used by the rules.
#[allow(missing_docs)]
pub mod bld {
    pub const SMALL_INDIGO: u8 = 0;
    pub const SMALL_SUGAR: u8 = 1;
    pub const INDIGO_PLANT: u8 = 2;
    pub const SUGAR_MILL: u8 = 3;
    pub const TOBACCO_STORAGE: u8 = 4;
    pub const COFFEE_ROASTER: u8 = 5;
    pub const SMALL_MARKET: u8 = 6;
    pub const HACIENDA: u8 = 7;
    pub const CONSTRUCTION_HUT: u8 = 8;
    pub const SMALL_WAREHOUSE: u8 = 9;
    pub const HOSPICE: u8 = 10;
    pub const OFFICE: u8 = 11;
    pub const LARGE_MARKET: u8 = 12;
    pub const LARGE_WAREHOUSE: u8 = 13;
    pub const FACTORY: u8 = 14;
    pub const UNIVERSITY: u8 = 15;
    pub const HARBOR: u8 = 16;
    pub const WHARF: u8 = 17;
    pub const GUILD_HALL: u8 = 18;
    pub const RESIDENCE: u8 = 19;
    pub const FORTRESS: u8 = 20;
    pub const CUSTOMS_HOUSE: u8 = 21;
    pub const CITY_HALL: u8 = 22;
}

/// Number of role cards (two prospectors).
pub const ROLES: usize = 8;
/// Role ids (the two prospector cards are 6 and 7).
#[allow(missing_docs)]
pub mod role {
    pub const SETTLER: u8 = 0;
    pub const MAYOR: u8 = 1;
    pub const BUILDER: u8 = 2;
    pub const CRAFTSMAN: u8 = 3;
    pub const TRADER: u8 = 4;
    pub const CAPTAIN: u8 = 5;
    pub const PROSPECTOR: u8 = 6;
    pub const PROSPECTOR_2: u8 = 7;
}
/// Role names, by id.
pub const ROLE_NAMES: [&str; ROLES] = [
    "settler",
    "mayor",
    "builder",
    "craftsman",
    "trader",
    "captain",
    "prospector",
    "prospector",
];

/// Action kinds, in legal-action order (spec §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    /// Pick a role card (payload: role id).
    Role = 0,
    /// Hacienda step (payload: [`DRAW`] or [`SKIP`]).
    Hacienda = 1,
    /// Take a face-up plantation (payload: crop), a quarry ([`QUARRY`]) or [`PASS`].
    Plantation = 2,
    /// Place one colonist (payload: [`COLONIST_ISLAND`] + tile, or [`COLONIST_BUILDING`] + building).
    Colonist = 3,
    /// Build (payload: building id) or [`PASS`].
    Build = 4,
    /// The craftsman's extra barrel (payload: good) or [`PASS`].
    ExtraGood = 5,
    /// Sell one barrel (payload: good) or [`PASS`].
    Sell = 6,
    /// Load (payload: good × 4 + ship 0–2 or [`WHARF`]) or [`PASS`].
    Load = 7,
    /// Storage keep (payload: good × 2 + [`WINDROSE`] or [`WAREHOUSE`]).
    Store = 8,
}

/// Names of the action kinds, indexed by [`Kind`].
pub const KIND_NAMES: [&str; 9] = [
    "role",
    "hacienda",
    "plantation",
    "colonist",
    "build",
    "extra_good",
    "sell",
    "load",
    "store",
];

/// Payload of a pass (sorts after every other payload of its kind).
pub const PASS: u8 = 255;
/// Hacienda payload: draw the top face-down tile.
pub const DRAW: u8 = 0;
/// Hacienda payload: do not draw.
pub const SKIP: u8 = 1;
/// Colonist payload base of island targets (crop or quarry tiles).
pub const COLONIST_ISLAND: u8 = 0;
/// Colonist payload base of building targets.
pub const COLONIST_BUILDING: u8 = 6;
/// Load target meaning the owner's wharf.
pub const WHARF: u8 = 3;
/// Store payload offset: keep one barrel on the windrose (ends the keep).
pub const WINDROSE: u8 = 0;
/// Store payload offset: keep all barrels of the kind in a warehouse.
pub const WAREHOUSE: u8 = 1;

/// One atomic action: kind, payload and whether it ends the actor's turn (spec §4 item 1).
/// Ordered by kind, then payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Action {
    /// What kind of decision it is.
    pub kind: Kind,
    /// Its payload (see [`Kind`]).
    pub payload: u8,
    /// True if the action closes the actor's turn; set by the legal-action generator.
    pub ends_turn: bool,
}

impl Action {
    /// An action that ends its turn.
    pub const fn new(kind: Kind, payload: u8) -> Self {
        Action {
            kind,
            payload,
            ends_turn: true,
        }
    }

    /// The same action with the given ends-turn bit.
    pub const fn with_end(self, ends_turn: bool) -> Self {
        Action { ends_turn, ..self }
    }

    /// True for a pass.
    pub const fn is_pass(self) -> bool {
        self.payload == PASS
    }
}
