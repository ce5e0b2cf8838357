//! Tribes' static vocabulary: terrains, resources, tribes, technologies, units, buildings,
//! level-up bonuses and action kinds, with their numbers from the rules reference
//! (`shared/spec/tribes-rules.md` §2–§11).

/// Defines a `#[repr(u8)]` enum with `ALL`, `index`, `from_index` and `name`.
macro_rules! table_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $v:ident = $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum $name { $($(#[$vm])* $v),+ }

        impl $name {
            /// Every value, in declaration (reference enum) order.
            pub const ALL: &'static [$name] = &[$($name::$v),+];
            /// Number of values.
            pub const COUNT: usize = Self::ALL.len();
            /// Position in [`Self::ALL`].
            #[inline]
            pub fn index(self) -> usize { self as usize }
            /// The value at position `i` of [`Self::ALL`].
            #[inline]
            pub fn from_index(i: usize) -> Option<Self> { Self::ALL.get(i).copied() }
            /// Stable lower-case name (used in configs, CSV and script names).
            pub fn name(self) -> &'static str { match self { $($name::$v => $s),+ } }
            /// Looks a value up by [`Self::name`].
            pub fn from_name(s: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|v| v.name() == s)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

table_enum! {
    /// Terrain of a tile (§2.1).
    Terrain {
        /// Open land, cost 1.
        Plain = "plain",
        /// Coast; needs SAILING.
        Shallow = "shallow_water",
        /// Ocean; needs NAVIGATION.
        Deep = "deep_water",
        /// Needs CLIMBING; entering ends movement.
        Mountain = "mountain",
        /// Capturable; becomes a city.
        Village = "village",
        /// A city centre.
        City = "city",
        /// Entering ends movement.
        Forest = "forest",
    }
}

impl Terrain {
    /// The level-file character.
    pub fn to_char(self) -> char {
        ['.', 's', 'd', 'm', 'v', 'c', 'f'][self as usize]
    }

    /// Parses a level-file character.
    pub fn from_char(c: char) -> Option<Self> {
        Some(match c {
            '.' => Terrain::Plain,
            's' => Terrain::Shallow,
            'd' => Terrain::Deep,
            'm' => Terrain::Mountain,
            'v' => Terrain::Village,
            'c' => Terrain::City,
            'f' => Terrain::Forest,
            _ => return None,
        })
    }

    /// Shallow or deep water.
    #[inline]
    pub fn is_water(self) -> bool {
        matches!(self, Terrain::Shallow | Terrain::Deep)
    }
}

table_enum! {
    /// A resource on a tile (§9).
    Resource {
        /// On shallow water; gathered with FISHING.
        Fish = "fish",
        /// On plains; gathered with ORGANIZATION.
        Fruit = "fruit",
        /// In forests; gathered with HUNTING.
        Animal = "animal",
        /// On deep water; gathered with WHALING for stars.
        Whales = "whales",
        /// On mountains; needed by a mine.
        Ore = "ore",
        /// On plains; needed by a farm.
        Crops = "crops",
        /// Examined by units for a random bonus.
        Ruins = "ruins",
    }
}

impl Resource {
    /// The level-file character.
    pub fn to_char(self) -> char {
        ['h', 'f', 'a', 'w', 'o', 'c', 'r'][self as usize]
    }

    /// Parses a level-file character.
    pub fn from_char(c: char) -> Option<Self> {
        Some(match c {
            'h' => Resource::Fish,
            'f' => Resource::Fruit,
            'a' => Resource::Animal,
            'w' => Resource::Whales,
            'o' => Resource::Ore,
            'c' => Resource::Crops,
            'r' => Resource::Ruins,
            _ => return None,
        })
    }
}

table_enum! {
    /// A technology (§6), in the reference enum order (the order research actions are listed).
    Tech {
        /// Enter mountains.
        Climbing = "climbing",
        /// Gather fish.
        Fishing = "fishing",
        /// Gather animals.
        Hunting = "hunting",
        /// Gather fruit.
        Organization = "organization",
        /// Spawn riders.
        Riding = "riding",
        /// Spawn archers; forest defence.
        Archery = "archery",
        /// Farms.
        Farming = "farming",
        /// Lumber huts; clear forest.
        Forestry = "forestry",
        /// Temples; disband.
        FreeSpirit = "free_spirit",
        /// Mountain temples; mountain defence.
        Meditation = "meditation",
        /// Mines.
        Mining = "mining",
        /// Roads.
        Roads = "roads",
        /// Ports; shallow water.
        Sailing = "sailing",
        /// Spawn defenders.
        Shields = "shields",
        /// Gather whales.
        Whaling = "whaling",
        /// Water temples; water defence.
        Aquatism = "aquatism",
        /// Spawn knights; burn forest.
        Chivalry = "chivalry",
        /// Windmills; destroy.
        Construction = "construction",
        /// Sawmills; spawn catapults.
        Mathematics = "mathematics",
        /// Deep water; battleships.
        Navigation = "navigation",
        /// Forges; spawn swordsmen.
        Smithery = "smithery",
        /// Forest temples; grow forest.
        Spiritualism = "spiritualism",
        /// Customs houses.
        Trade = "trade",
        /// Spawn mind benders; research discount.
        Philosophy = "philosophy",
    }
}

impl Tech {
    /// Tier 1, 2 or 3.
    pub fn tier(self) -> u32 {
        match self.index() {
            0..=4 => 1,
            5..=14 => 2,
            _ => 3,
        }
    }

    /// The tech that must be researched first, if any.
    pub fn parent(self) -> Option<Tech> {
        use Tech::*;
        Some(match self {
            Climbing | Fishing | Hunting | Organization | Riding => return None,
            Archery | Forestry => Hunting,
            Farming | Shields => Organization,
            FreeSpirit | Roads => Riding,
            Meditation | Mining => Climbing,
            Sailing | Whaling => Fishing,
            Aquatism => Whaling,
            Chivalry => FreeSpirit,
            Construction => Farming,
            Mathematics => Forestry,
            Navigation => Sailing,
            Smithery => Mining,
            Spiritualism => Archery,
            Trade => Roads,
            Philosophy => Meditation,
        })
    }

    /// This tech as a bit of a [`TechSet`].
    #[inline]
    pub fn bit(self) -> u32 {
        1 << self as u32
    }
}

/// A set of technologies as a bit mask.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TechSet(pub u32);

impl TechSet {
    /// Every technology.
    pub const FULL: TechSet = TechSet((1 << 24) - 1);

    /// True if `t` is in the set.
    #[inline]
    pub fn has(self, t: Tech) -> bool {
        self.0 & t.bit() != 0
    }

    /// Adds `t`.
    #[inline]
    pub fn insert(&mut self, t: Tech) {
        self.0 |= t.bit();
    }

    /// Number of technologies in the set.
    #[inline]
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// True if the set is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True if `t` is not yet known and its parent (if any) is.
    #[inline]
    pub fn can_research(self, t: Tech) -> bool {
        !self.has(t) && t.parent().is_none_or(|p| self.has(p))
    }
}

table_enum! {
    /// A tribe (§3).
    TribeKind {
        /// Starts with CLIMBING and a warrior.
        XinXi = "xin-xi",
        /// Starts with ORGANIZATION and a warrior.
        Imperius = "imperius",
        /// Starts with HUNTING and a warrior.
        Bardur = "bardur",
        /// Starts with RIDING and a rider.
        Oumaji = "oumaji",
    }
}

impl TribeKind {
    /// The technology the tribe starts with.
    pub fn start_tech(self) -> Tech {
        [
            Tech::Climbing,
            Tech::Organization,
            Tech::Hunting,
            Tech::Riding,
        ][self as usize]
    }

    /// The unit the tribe starts with.
    pub fn start_unit(self) -> UnitKind {
        if self == TribeKind::Oumaji {
            UnitKind::Rider
        } else {
            UnitKind::Warrior
        }
    }

    /// Display name as in the papers.
    pub fn title(self) -> &'static str {
        ["Xin-Xi", "Imperius", "Bardur", "Oumaji"][self as usize]
    }
}

table_enum! {
    /// A unit type (§7.1), in the reference enum order.
    UnitKind {
        /// Basic melee unit.
        Warrior = "warrior",
        /// Fast melee unit that can move after attacking.
        Rider = "rider",
        /// Sturdy defensive unit.
        Defender = "defender",
        /// Strong melee unit.
        Swordsman = "swordsman",
        /// Ranged unit.
        Archer = "archer",
        /// Long-ranged siege unit.
        Catapult = "catapult",
        /// Fast unit that may attack again after a kill.
        Knight = "knight",
        /// Heals and converts.
        MindBender = "mind_bender",
        /// A land unit on water.
        Boat = "boat",
        /// An upgraded boat.
        Ship = "ship",
        /// An upgraded ship.
        Battleship = "battleship",
        /// The giant from level-ups and ruins.
        SuperUnit = "super_unit",
    }
}

/// A unit type's fixed numbers (§7.1).
#[derive(Clone, Copy, Debug)]
pub struct UnitStats {
    /// Attack.
    pub atk: i32,
    /// Defence.
    pub def: i32,
    /// Movement points.
    pub mov: i32,
    /// Max HP (0 for naval units, which keep their land unit's).
    pub max_hp: i32,
    /// Attack range (Chebyshev).
    pub range: i32,
    /// Stars to spawn or upgrade to.
    pub cost: i32,
    /// Score points while alive.
    pub points: i32,
    /// Technology needed to spawn (or upgrade to).
    pub tech: Option<Tech>,
}

#[allow(clippy::too_many_arguments)] // a table row: one argument per column
const fn stats(
    atk: i32,
    def: i32,
    mov: i32,
    max_hp: i32,
    range: i32,
    cost: i32,
    points: i32,
    tech: Option<Tech>,
) -> UnitStats {
    UnitStats {
        atk,
        def,
        mov,
        max_hp,
        range,
        cost,
        points,
        tech,
    }
}

const UNIT_STATS: [UnitStats; 12] = [
    stats(2, 2, 1, 10, 1, 2, 10, None),
    stats(2, 1, 2, 10, 1, 3, 15, Some(Tech::Riding)),
    stats(1, 3, 1, 15, 1, 3, 15, Some(Tech::Shields)),
    stats(3, 3, 1, 15, 1, 5, 25, Some(Tech::Smithery)),
    stats(2, 1, 1, 10, 2, 3, 15, Some(Tech::Archery)),
    stats(4, 0, 1, 10, 3, 8, 40, Some(Tech::Mathematics)),
    stats(4, 1, 3, 15, 1, 8, 40, Some(Tech::Chivalry)),
    stats(0, 1, 1, 10, 1, 5, 25, Some(Tech::Philosophy)),
    stats(1, 1, 2, 0, 2, 0, 0, Some(Tech::Sailing)),
    stats(2, 2, 3, 0, 2, 5, 0, Some(Tech::Sailing)),
    stats(4, 3, 3, 0, 2, 15, 0, Some(Tech::Navigation)),
    stats(5, 4, 1, 40, 1, 10, 50, None),
];

impl UnitKind {
    /// The unit's fixed numbers.
    #[inline]
    pub fn stats(self) -> &'static UnitStats {
        &UNIT_STATS[self as usize]
    }

    /// Boat, ship or battleship.
    #[inline]
    pub fn is_naval(self) -> bool {
        matches!(self, UnitKind::Boat | UnitKind::Ship | UnitKind::Battleship)
    }

    /// Cities can spawn it.
    #[inline]
    pub fn is_spawnable(self) -> bool {
        (self as usize) <= UnitKind::MindBender as usize
    }

    /// Gets the city defence bonus (§7.1 "fortify").
    #[inline]
    pub fn can_fortify(self) -> bool {
        use UnitKind::*;
        matches!(
            self,
            Warrior | Rider | Archer | Defender | Swordsman | Knight
        )
    }

    /// Moves into the tile of a unit it kills (§7.4).
    #[inline]
    pub fn is_melee(self) -> bool {
        use UnitKind::*;
        matches!(
            self,
            Warrior | Rider | Defender | Swordsman | Knight | SuperUnit
        )
    }
}

/// A unit's progress through its turn (§7.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum UnitStatus {
    /// Has done nothing this turn.
    Fresh,
    /// Has moved.
    Moved,
    /// Has attacked.
    Attacked,
    /// Has moved and attacked.
    MovedAndAttacked,
    /// Was pushed; starts the next turn as moved.
    Pushed,
    /// Can do nothing more this turn.
    Finished,
}

table_enum! {
    /// A building (§8.1), in the reference enum order (roads are tile flags, not buildings).
    Building {
        /// Harbour on shallow water.
        Port = "port",
        /// On ore mountains.
        Mine = "mine",
        /// Supports adjacent mines.
        Forge = "forge",
        /// On crops.
        Farm = "farm",
        /// Supports adjacent farms.
        Windmill = "windmill",
        /// Supports adjacent ports with production.
        CustomsHouse = "customs_house",
        /// In forests.
        LumberHut = "lumber_hut",
        /// Supports adjacent lumber huts.
        Sawmill = "sawmill",
        /// On plains.
        Temple = "temple",
        /// On water.
        WaterTemple = "water_temple",
        /// In forests.
        ForestTemple = "forest_temple",
        /// On mountains.
        MountainTemple = "mountain_temple",
        /// Monument: 5 peaceful turns with MEDITATION.
        AltarOfPeace = "altar_of_peace",
        /// Monument: 100 stars with TRADE.
        EmperorsTomb = "emperors_tomb",
        /// Monument: whole map seen (never under full observability).
        EyeOfGod = "eye_of_god",
        /// Monument: 10 kills.
        GateOfPower = "gate_of_power",
        /// Monument: 5 connected cities with ROADS.
        GrandBazar = "grand_bazar",
        /// Monument: a park or super-unit level-up.
        ParkOfFortune = "park_of_fortune",
        /// Monument: every tech with PHILOSOPHY.
        TowerOfWisdom = "tower_of_wisdom",
    }
}

impl Building {
    /// Stars to build.
    pub fn cost(self) -> i32 {
        use Building::*;
        match self {
            Port => 10,
            Mine | Farm | Forge | Windmill | Sawmill | CustomsHouse => 5,
            LumberHut => 2,
            Temple | WaterTemple | MountainTemple => 20,
            ForestTemple => 15,
            _ => 0,
        }
    }

    /// Technology needed.
    pub fn tech(self) -> Option<Tech> {
        use Building::*;
        Some(match self {
            Port => Tech::Sailing,
            Mine => Tech::Mining,
            Forge => Tech::Smithery,
            Farm => Tech::Farming,
            Windmill => Tech::Construction,
            CustomsHouse => Tech::Trade,
            LumberHut => Tech::Forestry,
            Sawmill => Tech::Mathematics,
            Temple => Tech::FreeSpirit,
            WaterTemple => Tech::Aquatism,
            ForestTemple => Tech::Spiritualism,
            MountainTemple => Tech::Meditation,
            AltarOfPeace => Tech::Meditation,
            EmperorsTomb => Tech::Trade,
            EyeOfGod => Tech::Navigation,
            GrandBazar => Tech::Roads,
            TowerOfWisdom => Tech::Philosophy,
            GateOfPower | ParkOfFortune => return None,
        })
    }

    /// True if the building may stand on `t`.
    pub fn allows_terrain(self, t: Terrain) -> bool {
        use Building::*;
        match self {
            Port => t == Terrain::Shallow,
            Mine | MountainTemple => t == Terrain::Mountain,
            LumberHut | ForestTemple => t == Terrain::Forest,
            Farm | Forge | Windmill | Sawmill | CustomsHouse | Temple => t == Terrain::Plain,
            WaterTemple => t.is_water(),
            _ => matches!(t, Terrain::Plain | Terrain::Shallow),
        }
    }

    /// One of the four temples.
    #[inline]
    pub fn is_temple(self) -> bool {
        use Building::*;
        matches!(self, Temple | WaterTemple | ForestTemple | MountainTemple)
    }

    /// One of the seven monuments.
    #[inline]
    pub fn is_monument(self) -> bool {
        self as usize >= Building::AltarOfPeace as usize
    }

    /// Monument index 0..7 (only for monuments).
    #[inline]
    pub fn monument_index(self) -> usize {
        self as usize - Building::AltarOfPeace as usize
    }

    /// Forge, windmill, sawmill or customs house: at most one per city.
    #[inline]
    pub fn is_support(self) -> bool {
        use Building::*;
        matches!(self, Forge | Windmill | Sawmill | CustomsHouse)
    }

    /// The support building that boosts this base building, and the base building a support
    /// building boosts.
    pub fn partner(self) -> Option<Building> {
        use Building::*;
        Some(match self {
            Mine => Forge,
            Forge => Mine,
            Farm => Windmill,
            Windmill => Farm,
            LumberHut => Sawmill,
            Sawmill => LumberHut,
            Port => CustomsHouse,
            CustomsHouse => Port,
            _ => return None,
        })
    }

    /// Population the building gives its own city on completion (§8.1, §8.2). Support buildings
    /// give theirs per adjacent partner instead.
    pub fn own_population(self) -> i32 {
        use Building::*;
        match self {
            Port | Mine | Farm => 2,
            LumberHut => 1,
            Temple | WaterTemple | ForestTemple | MountainTemple => 1,
            b if b.is_monument() => 3,
            _ => 0,
        }
    }

    /// Population a support building gives per adjacent partner (forge 2, windmill 1,
    /// sawmill 1); 0 for the others.
    pub fn support_population(self) -> i32 {
        match self {
            Building::Forge => 2,
            Building::Windmill | Building::Sawmill => 1,
            _ => 0,
        }
    }
}

/// Number of monuments.
pub const MONUMENTS: usize = 7;

/// Whether a tribe may build a monument (§8.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MonumentStatus {
    /// Condition not met yet.
    #[default]
    Unavailable,
    /// May be built once.
    Available,
    /// Already built.
    Built,
}

table_enum! {
    /// A city level-up bonus (§5.4).
    LevelUpBonus {
        /// +1 production (level 2).
        Workshop = "workshop",
        /// An explorer (level 2).
        Explorer = "explorer",
        /// City walls (level 3).
        CityWall = "city_wall",
        /// +5 stars (level 3).
        Resources = "resources",
        /// +3 population (level 4).
        PopGrowth = "pop_growth",
        /// Territory radius +1 (level 4).
        BorderGrowth = "border_growth",
        /// +250 score (level 5+).
        Park = "park",
        /// A super unit (level 5+).
        SuperUnit = "super_unit",
    }
}

impl LevelUpBonus {
    /// The two options offered when a city of level `level` levels up.
    pub fn options(level: u8) -> [LevelUpBonus; 2] {
        use LevelUpBonus::*;
        match level {
            1 => [Workshop, Explorer],
            2 => [CityWall, Resources],
            3 => [PopGrowth, BorderGrowth],
            _ => [Park, SuperUnit],
        }
    }

    /// Score for taking this bonus: `50 − 5 × L`, L its level (2..5).
    pub fn score(self) -> i32 {
        let level = 2 + self as i32 / 2;
        50 - 5 * level
    }
}

table_enum! {
    /// An action kind (§11): 8 city, 3 tribe and 11 unit kinds.
    ActionKind {
        /// City: build a building.
        Build = "build",
        /// City: forest → plain with crops.
        BurnForest = "burn_forest",
        /// City: forest → plain, +2 stars.
        ClearForest = "clear_forest",
        /// City: remove a building.
        Destroy = "destroy",
        /// City: plain → forest.
        GrowForest = "grow_forest",
        /// City: pick a level-up bonus.
        LevelUp = "level_up",
        /// City: gather a resource.
        ResourceGathering = "resource_gathering",
        /// City: spawn a unit.
        Spawn = "spawn",
        /// Tribe: build a road.
        BuildRoad = "build_road",
        /// Tribe: research a technology.
        ResearchTech = "research_tech",
        /// Tribe: end the turn.
        EndTurn = "end_turn",
        /// Unit: attack an enemy unit.
        Attack = "attack",
        /// Unit: capture a village or enemy city.
        Capture = "capture",
        /// Unit (mind bender): convert an enemy unit.
        Convert = "convert",
        /// Unit: disband for half its cost.
        Disband = "disband",
        /// Unit: examine ruins.
        Examine = "examine",
        /// Unit (mind bender): heal adjacent own units.
        HealOthers = "heal_others",
        /// Unit: become a veteran.
        MakeVeteran = "make_veteran",
        /// Unit: move.
        Move = "move",
        /// Unit: heal itself.
        Recover = "recover",
        /// Unit: boat → ship.
        UpgradeBoat = "upgrade_boat",
        /// Unit: ship → battleship.
        UpgradeShip = "upgrade_ship",
    }
}

/// Who performs an action kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Scope {
    /// The tribe itself.
    Tribe = 0,
    /// A city.
    City = 1,
    /// A unit.
    Unit = 2,
}

impl ActionKind {
    /// Who performs actions of this kind.
    pub fn scope(self) -> Scope {
        match self as usize {
            0..=7 => Scope::City,
            8..=10 => Scope::Tribe,
            _ => Scope::Unit,
        }
    }
}

/// Names of every action kind, indexed by `ActionKind as usize` (for `GameInfo`).
pub const ACTION_KIND_NAMES: [&str; 22] = [
    "build",
    "burn_forest",
    "clear_forest",
    "destroy",
    "grow_forest",
    "level_up",
    "resource_gathering",
    "spawn",
    "build_road",
    "research_tech",
    "end_turn",
    "attack",
    "capture",
    "convert",
    "disband",
    "examine",
    "heal_others",
    "make_veteran",
    "move",
    "recover",
    "upgrade_boat",
    "upgrade_ship",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tech_tree_has_5_10_9_tiers_and_parents_of_lower_tier() {
        let count = |t| Tech::ALL.iter().filter(|x| x.tier() == t).count();
        assert_eq!((count(1), count(2), count(3)), (5, 10, 9));
        for &t in Tech::ALL {
            if let Some(p) = t.parent() {
                assert_eq!(p.tier() + 1, t.tier(), "{t}");
            }
        }
    }

    #[test]
    fn level_up_scores_are_40_35_30_25() {
        use LevelUpBonus::*;
        let s: Vec<i32> = [Workshop, CityWall, PopGrowth, Park]
            .iter()
            .map(|b| b.score())
            .collect();
        assert_eq!(s, [40, 35, 30, 25]);
        assert_eq!(Explorer.score(), 40);
        assert_eq!(SuperUnit.score(), 25);
    }

    #[test]
    fn action_kind_names_match_the_enum() {
        for &k in ActionKind::ALL {
            assert_eq!(ACTION_KIND_NAMES[k.index()], k.name());
        }
    }

    #[test]
    fn map_chars_round_trip() {
        for &t in Terrain::ALL {
            assert_eq!(Terrain::from_char(t.to_char()), Some(t));
        }
        for &r in Resource::ALL {
            assert_eq!(Resource::from_char(r.to_char()), Some(r));
        }
    }
}
