//! The Tribes action: a small `Copy` value naming kind, actor, argument and target tile.

use super::types::{ActionKind, Building, LevelUpBonus, Scope, Tech, UnitKind};

/// One atomic Tribes action.
///
/// `actor` is a city index (city actions), a unit slot (unit actions) or the tribe index (tribe
/// actions). `target` is a tile index where the kind has one (move, attack, build, road, …).
/// `arg` is the building, unit type, technology or level-up bonus as its enum index.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Action {
    /// What kind of action.
    pub kind: ActionKind,
    /// Building / unit type / tech / level-up bonus index, 0 if unused.
    pub arg: u8,
    /// City index, unit slot or tribe index.
    pub actor: u16,
    /// Target tile, 0 if unused.
    pub target: u16,
}

impl Action {
    /// An action from its parts.
    #[inline]
    pub fn new(kind: ActionKind, actor: usize, arg: u8, target: usize) -> Self {
        Action {
            kind,
            arg,
            actor: actor as u16,
            target: target as u16,
        }
    }

    /// The tribe's END_TURN.
    pub fn end_turn(tribe: usize) -> Self {
        Action::new(ActionKind::EndTurn, tribe, 0, 0)
    }

    /// The building argument (BUILD).
    pub fn building(self) -> Building {
        Building::from_index(self.arg as usize).unwrap_or(Building::Port)
    }

    /// The unit-type argument (SPAWN).
    pub fn unit_kind(self) -> UnitKind {
        UnitKind::from_index(self.arg as usize).unwrap_or(UnitKind::Warrior)
    }

    /// The technology argument (RESEARCH_TECH).
    pub fn tech(self) -> Tech {
        Tech::from_index(self.arg as usize).unwrap_or(Tech::Climbing)
    }

    /// The level-up bonus argument (LEVEL_UP).
    pub fn bonus(self) -> LevelUpBonus {
        LevelUpBonus::from_index(self.arg as usize).unwrap_or(LevelUpBonus::Workshop)
    }
}

impl std::fmt::Debug for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let who = match self.kind.scope() {
            Scope::Tribe => "tribe",
            Scope::City => "city",
            Scope::Unit => "unit",
        };
        write!(f, "{}({who} {}", self.kind.name(), self.actor)?;
        match self.kind {
            ActionKind::Build => write!(f, ", {} @{}", self.building().name(), self.target)?,
            ActionKind::Spawn => write!(f, ", {}", self.unit_kind().name())?,
            ActionKind::ResearchTech => write!(f, ", {}", self.tech().name())?,
            ActionKind::LevelUp => write!(f, ", {}", self.bonus().name())?,
            ActionKind::EndTurn
            | ActionKind::Disband
            | ActionKind::Recover
            | ActionKind::MakeVeteran
            | ActionKind::UpgradeBoat
            | ActionKind::UpgradeShip
            | ActionKind::HealOthers
            | ActionKind::Capture
            | ActionKind::Examine => {}
            _ => write!(f, " @{}", self.target)?,
        }
        f.write_str(")")
    }
}
