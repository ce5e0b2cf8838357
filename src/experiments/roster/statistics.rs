//! The per-game statistics the roster's classifier sees (see the [module docs](super)).

use crate::features::Composite;
use crate::game::GameInfo;

/// The names of every per-game statistic of a game with facts `info` and features
/// `composites`, for a map over the features `map`: the map's features (in axis order), the
/// game's own features defined in every game, then per action kind `kind:K/turn`, per action
/// label `label:L/turn`, and per statistic `final:S` and `slope:S`; each once, in that order.
/// Each resolves as a [`crate::features::Feature`] of the game.
pub fn statistic_names(info: &GameInfo, composites: &[Composite], map: &[String]) -> Vec<String> {
    let mut names: Vec<String> = map.to_vec();
    let mut add = |name: String| {
        if !names.contains(&name) {
            names.push(name);
        }
    };
    for c in composites.iter().filter(|c| !c.won_only) {
        add(c.name.to_string());
    }
    for k in info.action_kinds {
        add(format!("kind:{k}/turn"));
    }
    for l in info.action_labels {
        add(format!("label:{l}/turn"));
    }
    for s in info.stats {
        add(format!("final:{s}"));
    }
    for s in info.stats {
        add(format!("slope:{s}"));
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::Feature;

    #[test]
    fn every_declared_statistic_once_and_each_resolves() {
        let info = GameInfo {
            name: "toy",
            min_players: 2,
            max_players: 2,
            actor_classes: &["player"],
            action_kinds: &["move", "attack"],
            phases: &["main"],
            stats: &["gold"],
            action_labels: &["attack.far"],
            chance: false,
            hidden_information: false,
        };
        let composites = [
            Composite::every("reach", "x", |_| 1.0),
            Composite::won("speed", "y", |_| 2.0),
        ];
        let names = statistic_names(&info, &composites, &["kind:move/turn".to_string()]);
        assert_eq!(
            names,
            [
                "kind:move/turn",
                "reach",
                "kind:attack/turn",
                "label:attack.far/turn",
                "final:gold",
                "slope:gold"
            ]
        );
        for n in &names {
            Feature::resolve(n, "f", &info, &composites).unwrap();
        }
    }
}
