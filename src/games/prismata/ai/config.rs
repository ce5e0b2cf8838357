//! Bot configurations (spec §13 translated to TOML): named buy limits, filters, opening
//! books, partial players, portfolios ("move iterators") and players, each referring to
//! earlier-defined or later-defined entries by name, as the C++ `config.txt` does.
//!
//! ```toml
//! [buy_limits]
//! EconLimits15 = [["Drone", 15], ["Engineer", 2]]
//!
//! [partial_players]
//! Clicks = { type = "ActionAbility_Combination", combination = ["Econ", "Attack"] }
//!
//! [iterators]
//! Root = { partial_players = [["Defend"], ["Clicks"], ["BuyAttack", "BuyEcon"], ["Breach"]] }
//! Inner = { include = "Root", partial_players = [[], [], ["BuyBlock"], []], buy_limits = "EconLimits15" }
//!
//! [players]
//! Playout = { type = "Player_PPSequence", partial_players = ["Defend", "Clicks", "BuyAttack", "Breach"] }
//! AB = { type = "Player_StackAlphaBeta", evaluations = 30, max_children = 40, root_iterator = "Root", iterator = "Inner", eval = "Playout", playout_player = "Playout" }
//! ```
//!
//! Types keep their C++ names (`Defense_Solver`, `Player_UCT`, …); options are the C++ ones in
//! snake case, except that search time limits become budgets (`evaluations` for Alpha-Beta,
//! `traversals` for UCT; Portfolio Greedy Search has a fixed number of playouts). The
//! searches' `eval = "Learned"` scores leaves with a trained model ([`crate::learn`]), named
//! by `model = "FILE"` (a relative path is relative to the bot file's folder, so that a bot
//! file and its models move together: a run keeps copies of both, [`rename_models`]) or by
//! the agent spec's `model=FILE`. One type is
//! ours: `Player_PortfolioMCTS` ([`super::pmcts`]). Everything is resolved when the file is loaded, so an unknown name,
//! option or type, a wrong list length, a budget of 0 or a reference cycle is an error naming
//! the entry and field, the file and the line.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use super::ability::attack_waste::AvoidAttackWaste;
use super::ability::avoid_breach::{AvoidBreachSolver, ChillCalculation};
use super::ability::basic::{
    AbilityDefault, AbilityRandom, ActivateAll, ActivateUtility, AttackDefault, DontAttack,
    EconomyDefault, FrontlineGreedyKnapsack, SnipeGreedyKnapsack,
};
use super::ability::chill_knapsack::ChillGreedyKnapsack;
use super::ability::chill_solver::ChillSolver;
use super::ability::economy_waste::AvoidEconomyWaste;
use super::ability::untap_avoid_breach::UntapAvoidBreach;
use super::alpha_beta::{AlphaBeta, LeafEval};
use super::bot::Planner;
use super::breach::{BreachDefault, BreachGreedyKnapsack, BreachRandom};
use super::buy::{
    BuyAvoidBreach, BuyDefault, BuyEngineerHeuristic, BuyGreedyKnapsack, BuyNothing,
    BuyOpeningBook, BuyRandom, BuySequence, BuyTechHeuristic, BuyValue, OpeningBookEntrySpec,
    TechHeuristic,
};
use super::defense::{DefenseDefault, DefenseGreedyKnapsack, DefenseRandom, DefenseSolver};
use super::eval::{Leaf, LearnedLeaf, MAX_LOOK_AHEAD, load_model};
use super::filter::{CardFilter, FilterSpec};
use super::heuristics::{
    DamageLoss, UnitHeuristic, current_value, damage_loss_attack_value, damage_loss_will_cost,
    defense_heuristic_save_attackers, snipe_highest_defense,
};
use super::partial::{BuyLimits, Combination, PartialPlayer, PpPhase, UnitFilter};
use super::pgs::PortfolioGreedy;
use super::pmcts::TurnPmcts;
use super::portfolio::PartialPortfolio;
use super::sequence::Sequence;
use super::uct::Uct;
use crate::agents::portfolio_mcts::PmctsParams;
use crate::error::{Error, Result};
use crate::games::prismata::Library;

/// The built-in bot configuration: the C++ difficulty bots and the HPS paper's portfolio.
pub const BUILTIN: &str = include_str!("bots.toml");

/// The sections a configuration may have.
const SECTIONS: [&str; 6] = [
    "buy_limits",
    "filters",
    "opening_books",
    "partial_players",
    "iterators",
    "players",
];

/// A loaded, fully resolved bot configuration.
#[derive(Clone, Debug)]
pub struct BotConfig {
    players: BTreeMap<String, Planner>,
    partials: BTreeMap<String, Arc<dyn PartialPlayer>>,
    /// The resolved portfolios, kept for the tests.
    #[cfg(test)]
    portfolios: BTreeMap<String, PartialPortfolio>,
}

impl BotConfig {
    /// The built-in configuration ([`BUILTIN`]) over the built-in unit library.
    pub fn builtin() -> &'static BotConfig {
        static CONFIG: std::sync::OnceLock<BotConfig> = std::sync::OnceLock::new();
        CONFIG.get_or_init(|| {
            BotConfig::parse(Library::builtin(), BUILTIN, "bots.toml")
                .expect("the built-in bot configuration is valid (tested)")
        })
    }

    /// Reads a configuration from `text`, the file at `origin` (which names it in errors, and
    /// whose folder relative model paths are relative to).
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `origin` and the line for TOML syntax, or the entry and field
    /// (`partial_players.Clicks.combination[1]`) with `origin` and the line for anything that
    /// does not resolve.
    pub fn parse(library: &Library, text: &str, origin: &str) -> Result<BotConfig> {
        let table: toml::Table = toml::from_str(text)
            .map_err(|e| Error::config(origin, format!("not valid TOML: {e}")))?;
        Self::resolve(library, &table, origin).map_err(|e| match e {
            Error::Config { field, reason } => {
                let at = match line_of(text, &field) {
                    Some(line) => format!("{origin}, line {line}"),
                    None => origin.to_string(),
                };
                Error::Config {
                    field,
                    reason: format!("{reason} (in {at})"),
                }
            }
            e => e,
        })
    }

    /// The configuration of the TOML `table` of the file at `origin`.
    fn resolve(library: &Library, table: &toml::Table, origin: &str) -> Result<BotConfig> {
        for key in table.keys() {
            if !SECTIONS.contains(&key.as_str()) {
                return Err(Error::config(
                    key.clone(),
                    format!("unknown section (known: {})", SECTIONS.join(", ")),
                ));
            }
        }
        let folder = Path::new(origin).parent().unwrap_or(Path::new(""));
        let mut resolver = Resolver::new(library, table, folder)?;
        let mut players = BTreeMap::new();
        for name in resolver.names("players") {
            let planner = resolver.player(&name, "players")?;
            players.insert(name, planner);
        }
        for section in ["partial_players", "iterators"] {
            for name in resolver.names(section) {
                match section {
                    "partial_players" => drop(resolver.partial(&name, section)?),
                    _ => drop(resolver.portfolio(&name, section)?),
                }
            }
        }
        Ok(BotConfig {
            players,
            partials: resolver.partials,
            #[cfg(test)]
            portfolios: resolver.portfolios,
        })
    }

    /// The names of its players, sorted.
    pub fn player_names(&self) -> Vec<&str> {
        self.players.keys().map(String::as_str).collect()
    }

    /// The player called `name`.
    pub fn player(&self, name: &str) -> Option<&Planner> {
        self.players.get(name)
    }

    /// The partial player called `name`.
    pub fn partial_player(&self, name: &str) -> Option<&Arc<dyn PartialPlayer>> {
        self.partials.get(name)
    }

    /// The portfolio (iterator) called `name`.
    #[cfg(test)]
    pub(crate) fn portfolio(&self, name: &str) -> Option<&PartialPortfolio> {
        self.portfolios.get(name)
    }
}

/// An entry being read: its table and its path for errors, with the options not yet taken.
struct Entry<'t> {
    path: String,
    table: &'t toml::Table,
    taken: Vec<&'static str>,
}

impl<'t> Entry<'t> {
    fn field(&self, key: &str) -> String {
        format!("{}.{key}", self.path)
    }

    fn get(&mut self, key: &'static str) -> Option<&'t toml::Value> {
        self.taken.push(key);
        self.table.get(key)
    }

    fn string(&mut self, key: &'static str) -> Result<Option<&'t str>> {
        match self.get(key) {
            None => Ok(None),
            Some(toml::Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(Error::config(self.field(key), "must be a string")),
        }
    }

    fn required_string(&mut self, key: &'static str) -> Result<&'t str> {
        self.string(key)?
            .ok_or_else(|| Error::config(self.field(key), "missing"))
    }

    fn integer(&mut self, key: &'static str, default: u64) -> Result<u64> {
        match self.get(key) {
            None => Ok(default),
            Some(toml::Value::Integer(i)) if *i >= 0 => Ok(*i as u64),
            Some(_) => Err(Error::config(
                self.field(key),
                "must be a non-negative integer",
            )),
        }
    }

    fn boolean(&mut self, key: &'static str, default: bool) -> Result<bool> {
        match self.get(key) {
            None => Ok(default),
            Some(toml::Value::Boolean(b)) => Ok(*b),
            Some(_) => Err(Error::config(self.field(key), "must be true or false")),
        }
    }

    fn float(&mut self, key: &'static str, default: f64) -> Result<f64> {
        match self.get(key) {
            None => Ok(default),
            Some(toml::Value::Float(f)) if f.is_finite() => Ok(*f),
            Some(toml::Value::Integer(i)) => Ok(*i as f64),
            Some(_) => Err(Error::config(self.field(key), "must be a number")),
        }
    }

    /// [`Entry::float`] that must pass `ok`, else an error saying `must`.
    fn float_where(
        &mut self,
        key: &'static str,
        default: f64,
        ok: fn(f64) -> bool,
        must: &str,
    ) -> Result<f64> {
        let x = self.float(key, default)?;
        if ok(x) {
            Ok(x)
        } else {
            Err(Error::config(self.field(key), must))
        }
    }

    fn non_negative_float(&mut self, key: &'static str, default: f64) -> Result<f64> {
        self.float_where(key, default, |x| x >= 0.0, "must be a number ≥ 0")
    }

    fn positive_float(&mut self, key: &'static str, default: f64) -> Result<f64> {
        self.float_where(key, default, |x| x > 0.0, "must be a number > 0")
    }

    fn names(&mut self, key: &'static str) -> Result<Vec<&'t str>> {
        let field = self.field(key);
        match self.get(key) {
            None => Err(Error::config(field, "missing")),
            Some(v) => string_list(v, &field),
        }
    }

    /// Fails on an option nobody read.
    fn finish(&self) -> Result<()> {
        for key in self.table.keys() {
            if key != "type" && !self.taken.contains(&key.as_str()) {
                return Err(Error::config(self.field(key), "unknown option"));
            }
        }
        Ok(())
    }
}

fn string_list<'t>(v: &'t toml::Value, field: &str) -> Result<Vec<&'t str>> {
    let Some(items) = v.as_array() else {
        return Err(Error::config(field, "must be a list of names"));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            item.as_str()
                .ok_or_else(|| Error::config(format!("{field}[{i}]"), "must be a name"))
        })
        .collect()
}

/// Resolves names to built objects, each once, detecting reference cycles.
struct Resolver<'t> {
    library: &'t Library,
    table: &'t toml::Table,
    /// The bot file's folder, which relative model paths are relative to.
    folder: &'t Path,
    partials: BTreeMap<String, Arc<dyn PartialPlayer>>,
    portfolios: BTreeMap<String, PartialPortfolio>,
    limits: BTreeMap<String, BuyLimits>,
    /// Entries being resolved, to report cycles.
    open: Vec<String>,
}

impl<'t> Resolver<'t> {
    fn new(library: &'t Library, table: &'t toml::Table, folder: &'t Path) -> Result<Resolver<'t>> {
        for section in SECTIONS {
            if let Some(v) = table.get(section)
                && !v.is_table()
            {
                return Err(Error::config(section, "must be a table of named entries"));
            }
        }
        Ok(Resolver {
            library,
            table,
            folder,
            partials: BTreeMap::new(),
            portfolios: BTreeMap::new(),
            limits: BTreeMap::new(),
            open: Vec::new(),
        })
    }

    fn names(&self, section: &str) -> Vec<String> {
        self.table
            .get(section)
            .and_then(toml::Value::as_table)
            .map(|t| t.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// The entry `name` of `section` (`field` names the reference, for errors).
    fn entry(&self, section: &str, name: &str, field: &str) -> Result<&'t toml::Value> {
        self.table
            .get(section)
            .and_then(toml::Value::as_table)
            .and_then(|t| t.get(name))
            .ok_or_else(|| Error::config(field, format!("no entry `{name}` in [{section}]")))
    }

    fn table_entry(&self, section: &str, name: &str, field: &str) -> Result<Entry<'t>> {
        let path = format!("{section}.{name}");
        let table = self
            .entry(section, name, field)?
            .as_table()
            .ok_or_else(|| Error::config(&path, "must be a table"))?;
        Ok(Entry {
            path,
            table,
            taken: Vec::new(),
        })
    }

    fn enter(&mut self, path: String) -> Result<()> {
        if self.open.contains(&path) {
            return Err(Error::config(
                path,
                format!("refers to itself: {}", self.open.join(" -> ")),
            ));
        }
        self.open.push(path);
        Ok(())
    }

    fn unit(&self, name: &str, field: &str) -> Result<u16> {
        self.library
            .id(name)
            .ok_or_else(|| Error::config(field, format!("no unit named `{name}`")))
    }

    /// The buy limits called `name`: a list of [unit, limit] pairs.
    fn buy_limits(&mut self, name: &str, field: &str) -> Result<BuyLimits> {
        if let Some(l) = self.limits.get(name) {
            return Ok(l.clone());
        }
        let path = format!("buy_limits.{name}");
        let value = self.entry("buy_limits", name, field)?;
        let pairs = value
            .as_array()
            .ok_or_else(|| Error::config(&path, "must be a list of [unit, limit] pairs"))?;
        let mut limits = BuyLimits::default();
        for (i, pair) in pairs.iter().enumerate() {
            let (unit, max) = self.unit_count(pair, &format!("{path}[{i}]"))?;
            limits.set(unit, max);
        }
        self.limits.insert(name.to_string(), limits.clone());
        Ok(limits)
    }

    /// A `[unit name, count]` pair at `field`.
    fn unit_count(&self, pair: &toml::Value, field: &str) -> Result<(u16, u16)> {
        match pair.as_array().map(Vec::as_slice) {
            Some([toml::Value::String(u), toml::Value::Integer(m)])
                if (0..=i64::from(u16::MAX)).contains(m) =>
            {
                Ok((self.unit(u, field)?, *m as u16))
            }
            _ => Err(Error::config(field, "must be [unit name, count]")),
        }
    }

    /// The filter called `name` (an entry of `[filters]`, with the filters it includes).
    fn filter(&mut self, name: &str, field: &str) -> Result<Arc<dyn UnitFilter>> {
        Ok(Arc::new(self.card_filter(name, field)?))
    }

    fn card_filter(&mut self, name: &str, field: &str) -> Result<CardFilter> {
        let path = format!("filters.{name}");
        let value = self.entry("filters", name, field)?.clone();
        let spec: FilterSpec = value
            .try_into()
            .map_err(|e| Error::config(&path, format!("not a valid filter: {e}")))?;
        self.enter(path.clone())?;
        let mut filter = CardFilter::new(self.library, &spec, &path)?;
        if let Some(include) = &spec.include {
            let other = self.card_filter(include, &format!("{path}.include"))?;
            filter.add(self.library, &other);
        }
        self.open.pop();
        Ok(filter)
    }

    /// The opening book called `name`: a list of entries (C++ fields `self`, `enemy`,
    /// `buyable`, `buy`).
    fn opening_book(&self, name: &str, field: &str) -> Result<Vec<OpeningBookEntrySpec>> {
        let path = format!("opening_books.{name}");
        self.entry("opening_books", name, field)?
            .clone()
            .try_into()
            .map_err(|e| Error::config(path, format!("not a list of opening-book entries: {e}")))
    }

    /// The filter named by the entry's `filter` option, if it has one.
    fn filter_option(&mut self, e: &mut Entry) -> Result<Option<Arc<dyn UnitFilter>>> {
        match e.string("filter")? {
            None => Ok(None),
            Some(name) => {
                let field = e.field("filter");
                Ok(Some(self.filter(name, &field)?))
            }
        }
    }

    /// The partial player called `name`.
    fn partial(&mut self, name: &str, field: &str) -> Result<Arc<dyn PartialPlayer>> {
        if let Some(p) = self.partials.get(name) {
            return Ok(p.clone());
        }
        let mut entry = self.table_entry("partial_players", name, field)?;
        self.enter(entry.path.clone())?;
        let kind = entry.required_string("type")?;
        let Some(&(_, build)) = PARTIAL_TYPES.iter().find(|(t, _)| *t == kind) else {
            let known: Vec<&str> = PARTIAL_TYPES.iter().map(|(t, _)| *t).collect();
            return Err(Error::config(
                entry.field("type"),
                format!("unknown type `{kind}` (known: {})", known.join(", ")),
            ));
        };
        let mut player = build(self, &mut entry)?;
        if let Some(limits) = entry.string("buy_limits")? {
            let limits = self.buy_limits(limits, &entry.field("buy_limits"))?;
            player = player.with_buy_limits(&limits);
        }
        entry.finish()?;
        self.open.pop();
        self.partials.insert(name.to_string(), player.clone());
        Ok(player)
    }

    /// The portfolio called `name` (an entry of `[iterators]`).
    fn portfolio(&mut self, name: &str, field: &str) -> Result<PartialPortfolio> {
        if let Some(p) = self.portfolios.get(name) {
            return Ok(p.clone());
        }
        let mut entry = self.table_entry("iterators", name, field)?;
        self.enter(entry.path.clone())?;
        if let Some(kind) = entry.string("type")?
            && kind != "PPPortfolio"
        {
            return Err(Error::config(
                entry.field("type"),
                format!("unknown type `{kind}` (the one iterator type is PPPortfolio)"),
            ));
        }
        let mut phases: [Vec<Arc<dyn PartialPlayer>>; 4] = Default::default();
        let mut names: [Vec<String>; 4] = Default::default();
        if let Some(include) = entry.string("include")? {
            let included = self.portfolio(include, &entry.field("include"))?;
            (phases, names) = (included.phases, included.names);
        }
        let lists_field = entry.field("partial_players");
        if let Some(lists) = entry.get("partial_players") {
            let lists = lists.as_array().filter(|l| l.len() == 4).ok_or_else(|| {
                Error::config(
                    &lists_field,
                    "must be four lists of partial players (defense, ability, buy, breach)",
                )
            })?;
            for (phase, list) in lists.iter().enumerate() {
                let at = format!("{lists_field}[{phase}]");
                for (i, pp) in string_list(list, &at)?.into_iter().enumerate() {
                    let field = format!("{at}[{i}]");
                    let player = self.partial(pp, &field)?;
                    check_slot(player.as_ref(), pp, phase, &field)?;
                    phases[phase].push(player);
                    names[phase].push(pp.to_string());
                }
            }
        }
        let mut portfolio = PartialPortfolio { phases, names };
        if let Some(limits) = entry.string("buy_limits")? {
            let limits = self.buy_limits(limits, &entry.field("buy_limits"))?;
            portfolio = portfolio.with_buy_limits(&limits);
        }
        entry.finish()?;
        self.open.pop();
        self.portfolios.insert(name.to_string(), portfolio.clone());
        Ok(portfolio)
    }

    /// A portfolio a player searches: every phase must offer a partial player.
    fn full_portfolio(&mut self, name: &str, field: &str) -> Result<PartialPortfolio> {
        let p = self.portfolio(name, field)?;
        if let Some(phase) = p.phases.iter().position(Vec::is_empty) {
            return Err(Error::config(
                field,
                format!(
                    "iterator `{name}` has no partial player for the {} phase",
                    phase_name(PpPhase::ALL[phase])
                ),
            ));
        }
        Ok(p)
    }

    /// A sequence of four partial players, one per phase, named at `key` of `entry`.
    fn sequence(&mut self, entry: &mut Entry<'t>, key: &'static str) -> Result<Sequence> {
        let field = entry.field(key);
        let names = entry.names(key)?;
        if names.len() != 4 {
            return Err(Error::config(
                field,
                "must name four partial players (defense, ability, buy, breach)",
            ));
        }
        let mut players = Vec::with_capacity(4);
        for (slot, name) in names.into_iter().enumerate() {
            let at = format!("{field}[{slot}]");
            let player = self.partial(name, &at)?;
            check_slot(player.as_ref(), name, slot, &at)?;
            players.push(player);
        }
        Ok(Sequence {
            players: players.try_into().expect("four players"),
        })
    }

    /// The player called `name`.
    fn player(&mut self, name: &str, field: &str) -> Result<Planner> {
        let mut entry = self.table_entry("players", name, field)?;
        let kind = entry.required_string("type")?;
        let planner = match kind {
            "Player_PPSequence" => Planner::Sequence(self.sequence(&mut entry, "partial_players")?),
            "Player_PortfolioGreedySearch" => {
                let it = entry.required_string("portfolio")?;
                Planner::Pgs(PortfolioGreedy {
                    portfolio: self.full_portfolio(it, &entry.field("portfolio"))?,
                    iterations: entry.integer("improvement_iterations", 1)?.min(100) as u32,
                    responses: entry.integer("responses", 1)?.min(100) as u32,
                })
            }
            "Player_RandomFromIterator" => {
                let it = entry.required_string("iterator")?;
                Planner::RandomFromPortfolio(self.full_portfolio(it, &entry.field("iterator"))?)
            }
            "Player_StackAlphaBeta" | "Player_UCT" | "Player_PortfolioMCTS" => {
                let inner_name = entry.required_string("iterator")?;
                let inner = self.full_portfolio(inner_name, &entry.field("iterator"))?;
                let root = match entry.string("root_iterator")? {
                    Some(r) => self.full_portfolio(r, &entry.field("root_iterator"))?,
                    None => inner.clone(),
                };
                let eval = entry.string("eval")?.unwrap_or("Playout");
                let by_playout = eval == "Playout" || kind != "Player_StackAlphaBeta";
                // The playout player: needed by every playout evaluation, refused elsewhere.
                let playout = match entry.string("playout_player")? {
                    Some(name) => Some(self.playout_player(name, &entry.field("playout_player"))?),
                    None if by_playout => {
                        return Err(Error::config(entry.field("playout_player"), "missing"));
                    }
                    None => None,
                };
                // A learned model: from the config's `model`, or later from the agent spec.
                let model = match entry.string("model")? {
                    Some(path) if eval == "Learned" => {
                        let path = self.folder.join(path);
                        Some(
                            load_model(self.library, &path.to_string_lossy())
                                .map_err(|e| Error::config(entry.field("model"), e.to_string()))?,
                        )
                    }
                    Some(_) => {
                        return Err(Error::config(
                            entry.field("model"),
                            format!("only for eval = \"Learned\", not `{eval}`"),
                        ));
                    }
                    None => None,
                };
                let (eval, leaf) = match (eval, playout.clone()) {
                    ("Learned", playout) => {
                        // Turns of the playout player before the model (0: none).
                        let turns = entry.integer("playout_turns", 0)?;
                        if turns > u64::from(MAX_LOOK_AHEAD) || (turns > 0 && playout.is_none()) {
                            return Err(Error::config(
                                entry.field("playout_turns"),
                                format!(
                                    "{turns}: at most {MAX_LOOK_AHEAD}, and only with a playout_player"
                                ),
                            ));
                        }
                        let learned = LearnedLeaf {
                            model,
                            turns: turns as u32,
                        };
                        (
                            LeafEval::Learned(learned.clone(), playout),
                            Leaf::Learned(learned),
                        )
                    }
                    ("Playout", Some(p)) => (LeafEval::Playout(p), Leaf::Playout),
                    ("WillScore", _) if !by_playout => (LeafEval::WillScore, Leaf::Playout),
                    ("WillScoreInflation", _) if !by_playout => {
                        (LeafEval::WillScoreInflation, Leaf::Playout)
                    }
                    _ => {
                        let known = if kind == "Player_StackAlphaBeta" {
                            "Playout, WillScore, WillScoreInflation, Learned"
                        } else {
                            "Playout, Learned"
                        };
                        return Err(Error::config(
                            entry.field("eval"),
                            format!("unknown evaluation `{eval}` for {kind} (known: {known})"),
                        ));
                    }
                };
                let playout = || {
                    playout
                        .clone()
                        .expect("a playout search has a playout player")
                };
                match kind {
                    "Player_UCT" => Planner::Uct(Uct {
                        root,
                        inner,
                        max_children: entry.integer("max_children", 0)? as usize,
                        c: entry.non_negative_float("uct_constant", 2.0)?,
                        traversals: positive(&mut entry, "traversals")?,
                        playout: playout(),
                        leaf,
                    }),
                    "Player_StackAlphaBeta" => Planner::AlphaBeta(AlphaBeta {
                        root,
                        inner,
                        max_depth: entry.integer("max_depth", 20)?.clamp(1, 50) as u32,
                        max_children: entry.integer("max_children", 0)? as usize,
                        eval,
                        evaluations: positive(&mut entry, "evaluations")?,
                    }),
                    _ => Planner::Pmcts(pmcts(&mut entry, root, inner, playout(), leaf)?),
                }
            }
            _ => {
                return Err(Error::config(
                    entry.field("type"),
                    format!(
                        "unknown type `{kind}` (known: Player_PPSequence, \
                         Player_RandomFromIterator, Player_StackAlphaBeta, Player_UCT, \
                         Player_PortfolioGreedySearch, Player_PortfolioMCTS)"
                    ),
                ));
            }
        };
        entry.finish()?;
        Ok(planner)
    }

    /// The scripted player a search plays out with.
    fn playout_player(&mut self, name: &str, field: &str) -> Result<Sequence> {
        let mut entry = self.table_entry("players", name, field)?;
        if entry.required_string("type")? != "Player_PPSequence" {
            return Err(Error::config(
                field,
                format!("`{name}` is not a Player_PPSequence"),
            ));
        }
        self.sequence(&mut entry, "partial_players")
    }
}

/// A `Player_PortfolioMCTS` over `root` and `inner`: `traversals`, `uct_constant` (2),
/// `bias` and `pruning` (on), the unpruning schedule (`k_init_mult`, `t_mult`, `a_mult`, `b`;
/// [`PmctsParams::default`]'s) and `weights`, a table of partial-player weights.
fn pmcts(
    entry: &mut Entry,
    root: PartialPortfolio,
    inner: PartialPortfolio,
    playout: Sequence,
    leaf: Leaf,
) -> Result<TurnPmcts> {
    let d = PmctsParams::default();
    let params = PmctsParams {
        c: entry.positive_float("uct_constant", 2.0)?,
        bias: entry.boolean("bias", true)?,
        pruning: entry.boolean("pruning", true)?,
        k_init_mult: entry.positive_float("k_init_mult", d.k_init_mult)?,
        t_mult: entry.positive_float("t_mult", d.t_mult)?,
        a_mult: entry.positive_float("a_mult", d.a_mult)?,
        b: entry.positive_float("b", d.b)?,
        ..d
    };
    let mut search = TurnPmcts {
        root,
        inner,
        traversals: positive(entry, "traversals")?,
        playout,
        params,
        weights: Vec::new(),
        style: 0.0,
        persona_playouts: false,
        leaf,
    };
    let field = entry.field("weights");
    if let Some(table) = entry.get("weights") {
        let table = table
            .as_table()
            .ok_or_else(|| Error::config(&field, "must be a table of partial player = weight"))?;
        let mut weights = Vec::new();
        for (name, w) in table {
            let w = w.as_float().or_else(|| w.as_integer().map(|i| i as f64));
            let w =
                w.ok_or_else(|| Error::config(format!("{field}.{name}"), "must be a number"))?;
            weights.push((name.clone(), w));
        }
        search
            .set_weights(weights)
            .map_err(|e| Error::config(&field, e))?;
    }
    Ok(search)
}

/// The line of `text` (TOML) holding the key path `field` (`players.AB.evaluations`; an index
/// such as `[1]` is left out), or the deepest part of it that `text` holds; `None` if none.
fn line_of(text: &str, field: &str) -> Option<usize> {
    use toml::de::{DeTable, DeValue};
    let parsed = DeTable::parse(text).ok()?;
    let mut table = parsed.get_ref();
    let mut at = None;
    for part in field.split('.') {
        let key = part.split('[').next().unwrap_or(part);
        let Some((k, v)) = table.iter().find(|(k, _)| k.get_ref() == key) else {
            break;
        };
        at = Some(k.span().start);
        match v.get_ref() {
            DeValue::Table(t) => table = t,
            _ => break,
        }
    }
    at.map(|start| text[..start].matches('\n').count() + 1)
}

/// The text of the bot file `text` with the path of each player's `model` replaced by
/// `rename` of it (the path as written, relative to the bot file's folder or absolute), or
/// `None` if it names no model or `rename` changes none (the file is then kept byte for byte).
/// A changed file is written anew from its table (its comments left out).
///
/// # Errors
///
/// [`Error::Config`] naming `origin` if `text` is not TOML.
pub fn rename_models(
    text: &str,
    origin: &str,
    rename: &mut dyn FnMut(&str) -> Result<String>,
) -> Result<Option<String>> {
    let mut table: toml::Table =
        toml::from_str(text).map_err(|e| Error::config(origin, format!("not valid TOML: {e}")))?;
    let mut changed = false;
    let players = table.get_mut("players").and_then(toml::Value::as_table_mut);
    for (_, entry) in players.into_iter().flat_map(|p| p.iter_mut()) {
        let model = entry.as_table_mut().and_then(|t| t.get_mut("model"));
        if let Some(toml::Value::String(path)) = model {
            let to = rename(path)?;
            changed |= to != *path;
            *path = to;
        }
    }
    Ok(changed.then(|| toml::to_string(&table).expect("a TOML table serialises")))
}

/// A search budget (`traversals`, `evaluations`): 1 to [`crate::limits::MAX_BUDGET`].
fn positive(entry: &mut Entry, key: &'static str) -> Result<u64> {
    match entry.integer(key, 0)? {
        0 => Err(Error::config(
            entry.field(key),
            "missing or 0 (a budget of at least 1)",
        )),
        n => crate::limits::at_most(n, crate::limits::MAX_BUDGET, &entry.field(key)),
    }
}

/// Checks that `player` (called `name`, referred to at `field`) plays the phase of `slot`, an
/// index into [`PpPhase::ALL`]: a player of another phase would act where it cannot end its
/// phase (a breach player in the defense slot) or end a phase that is not its own.
fn check_slot(player: &dyn PartialPlayer, name: &str, slot: usize, field: &str) -> Result<()> {
    let want = PpPhase::ALL[slot];
    let is = player.phase();
    if is == want {
        return Ok(());
    }
    Err(Error::config(
        field,
        format!(
            "`{name}` is {} player, but slot {slot} takes {} player \
             (the slots are defense, ability, buy, breach)",
            a_phase(is),
            a_phase(want)
        ),
    ))
}

/// The phase's name with its article, as in "an ability player".
fn a_phase(phase: PpPhase) -> &'static str {
    match phase {
        PpPhase::Ability => "an ability",
        PpPhase::Defense => "a defense",
        PpPhase::Buy => "a buy",
        PpPhase::Breach => "a breach",
    }
}

fn phase_name(phase: PpPhase) -> &'static str {
    match phase {
        PpPhase::Defense => "defense",
        PpPhase::Ability => "ability",
        PpPhase::Buy => "buy",
        PpPhase::Breach => "breach",
    }
}

/// Builds a partial player of one type from its entry.
type Build = fn(&mut Resolver, &mut Entry) -> Result<Arc<dyn PartialPlayer>>;

/// Every partial-player type a configuration may name.
const PARTIAL_TYPES: &[(&str, Build)] = &[
    ("Defense_Solver", |_, e| {
        let loss = damage_loss(e, "heuristic", damage_loss_will_cost)?;
        Ok(Arc::new(DefenseSolver { loss }))
    }),
    ("Defense_GreedyKnapsack", |_, e| {
        let heuristic = unit_heuristic(e, "heuristic", current_value)?;
        Ok(Arc::new(DefenseGreedyKnapsack { heuristic }))
    }),
    ("Defense_Default", |_, _| Ok(Arc::new(DefenseDefault))),
    ("Defense_Random", |_, _| Ok(Arc::new(DefenseRandom))),
    ("ActionAbility_EconomyDefault", |_, _| {
        Ok(Arc::new(EconomyDefault))
    }),
    ("ActionAbility_AttackDefault", |r, e| {
        let filter = r.filter_option(e)?;
        Ok(Arc::new(AttackDefault { filter }))
    }),
    ("ActionAbility_ActivateUtility", |r, e| {
        let filter = r.filter_option(e)?;
        Ok(Arc::new(ActivateUtility { filter }))
    }),
    ("ActionAbility_FrontlineGreedyKnapsack", |_, e| {
        let heuristic = unit_heuristic(e, "heuristic", current_value)?;
        Ok(Arc::new(FrontlineGreedyKnapsack { heuristic }))
    }),
    ("ActionAbility_SnipeGreedyKnapsack", |_, e| {
        let heuristic = unit_heuristic(e, "heuristic", current_value)?;
        Ok(Arc::new(SnipeGreedyKnapsack { heuristic }))
    }),
    ("ActionAbility_DontAttack", |_, _| Ok(Arc::new(DontAttack))),
    ("ActionAbility_Default", |_, _| Ok(Arc::new(AbilityDefault))),
    ("ActionAbility_ActivateAll", |_, _| {
        Ok(Arc::new(ActivateAll))
    }),
    ("ActionAbility_Random", |_, _| Ok(Arc::new(AbilityRandom))),
    ("ActionAbility_ChillGreedyKnapsack", |_, e| {
        let heuristic = unit_heuristic(e, "heuristic", current_value)?;
        Ok(Arc::new(ChillGreedyKnapsack { heuristic }))
    }),
    ("ActionAbility_ChillSolver", |_, e| {
        let max_iterations = e.integer("max_iterations", 0)? as usize;
        Ok(Arc::new(ChillSolver { max_iterations }))
    }),
    ("ActionAbility_AvoidAttackWaste", |_, _| {
        Ok(Arc::new(AvoidAttackWaste))
    }),
    ("ActionAbility_AvoidEconomyWaste", |_, _| {
        Ok(Arc::new(AvoidEconomyWaste))
    }),
    ("ActionAbility_UntapAvoidBreach", |_, _| {
        Ok(Arc::new(UntapAvoidBreach))
    }),
    ("ActionAbility_AvoidBreachSolver", |_, e| {
        let max_untap_drones = u16::try_from(e.integer("max_untap_drones", 0)?)
            .map_err(|_| Error::config(e.field("max_untap_drones"), "too large"))?;
        let chill_calculation = match e.string("chill_calculation_method")? {
            None | Some("None") => ChillCalculation::None,
            Some("Heuristic") => ChillCalculation::Heuristic,
            Some("Solver") => ChillCalculation::Solver,
            Some(other) => {
                return Err(Error::config(
                    e.field("chill_calculation_method"),
                    format!("unknown method `{other}` (known: None, Heuristic, Solver)"),
                ));
            }
        };
        let max_chill_solver_iterations = e.integer("max_chill_solver_iterations", 0)? as usize;
        Ok(Arc::new(AvoidBreachSolver {
            max_untap_drones,
            chill_calculation,
            max_chill_solver_iterations,
        }))
    }),
    ("ActionAbility_Combination", |r, e| {
        combination(r, e, PpPhase::Ability)
    }),
    ("ActionBuy_Combination", |r, e| {
        combination(r, e, PpPhase::Buy)
    }),
    ("Breach_GreedyKnapsack", |_, e| {
        let low_tech_priority = e.boolean("low_tech_priority", true)?;
        let loss = damage_loss(e, "heuristic", damage_loss_will_cost)?;
        Ok(Arc::new(BreachGreedyKnapsack {
            low_tech_priority,
            loss,
        }))
    }),
    ("ActionBuy_GreedyKnapsack", |r, e| {
        let value = match e.string("heuristic")? {
            None | Some("BuyWillScore") | Some("BuyHighestCost") => BuyValue::WillScore,
            Some("BuyAttackValue") => BuyValue::AttackValue,
            Some("BuyBlockValue") => BuyValue::BlockValue,
            Some(other) => {
                return Err(Error::config(
                    e.field("heuristic"),
                    format!(
                        "unknown heuristic `{other}` (known: BuyAttackValue, BuyBlockValue, \
                         BuyWillScore, BuyHighestCost)"
                    ),
                ));
            }
        };
        let filter = match e.string("filter")? {
            None => CardFilter::default(),
            Some(name) => {
                let field = e.field("filter");
                r.card_filter(name, &field)?
            }
        };
        Ok(Arc::new(BuyGreedyKnapsack {
            value,
            filter: Arc::new(filter),
            ..BuyGreedyKnapsack::default()
        }))
    }),
    ("ActionBuy_AvoidBreach", |_, _| {
        Ok(Arc::new(BuyAvoidBreach::default()))
    }),
    ("ActionBuy_Default", |_, _| {
        Ok(Arc::new(BuyDefault::default()))
    }),
    ("ActionBuy_Nothing", |_, _| Ok(Arc::new(BuyNothing))),
    ("ActionBuy_Random", |_, _| {
        Ok(Arc::new(BuyRandom::default()))
    }),
    ("ActionBuy_EngineerHeuristic", |_, _| {
        Ok(Arc::new(BuyEngineerHeuristic::default()))
    }),
    ("ActionBuy_Sequence", |r, e| {
        let field = e.field("buy_sequence");
        let Some(list) = e.get("buy_sequence").and_then(toml::Value::as_array) else {
            return Err(Error::config(
                field,
                "missing, or not a list of [unit, max] pairs",
            ));
        };
        let mut sequence = Vec::new();
        for (i, pair) in list.iter().enumerate() {
            sequence.push(r.unit_count(pair, &format!("{field}[{i}]"))?);
        }
        Ok(Arc::new(BuySequence {
            sequence,
            ..BuySequence::default()
        }))
    }),
    ("ActionBuy_TechHeuristic", |_, e| {
        let heuristic = match e.string("heuristic")? {
            None | Some("ElyotFormula") => TechHeuristic::ElyotFormula,
            Some("ElyotFormulaBalanced") => TechHeuristic::ElyotFormulaBalanced,
            Some("ElyotFormulaPlayout") => TechHeuristic::ElyotFormulaPlayout,
            Some("Diversify") => TechHeuristic::Diversify,
            Some(other) => {
                return Err(Error::config(
                    e.field("heuristic"),
                    format!(
                        "unknown heuristic `{other}` (known: ElyotFormula, \
                         ElyotFormulaBalanced, ElyotFormulaPlayout, Diversify)"
                    ),
                ));
            }
        };
        Ok(Arc::new(BuyTechHeuristic {
            heuristic,
            ..BuyTechHeuristic::default()
        }))
    }),
    ("ActionBuy_OpeningBook", |r, e| {
        let name = e.required_string("opening_book")?;
        let entries = r.opening_book(name, &e.field("opening_book"))?;
        Ok(Arc::new(BuyOpeningBook::new(r.library, &entries)))
    }),
    ("Breach_Default", |_, _| Ok(Arc::new(BreachDefault))),
    ("Breach_Random", |_, _| Ok(Arc::new(BreachRandom))),
];

/// A damage-loss heuristic option: `DamageLoss_WillCost` or `DamageLoss_AttackValue`.
fn damage_loss(e: &mut Entry, key: &'static str, default: DamageLoss) -> Result<DamageLoss> {
    Ok(match e.string(key)? {
        None => default,
        Some("DamageLoss_WillCost") => damage_loss_will_cost,
        Some("DamageLoss_AttackValue") => damage_loss_attack_value,
        Some(other) => {
            return Err(Error::config(
                e.field(key),
                format!(
                    "unknown heuristic `{other}` (known: DamageLoss_WillCost, DamageLoss_AttackValue)"
                ),
            ));
        }
    })
}

/// A unit-score heuristic option: `CurrentCardValue`, `DefenseHeuristicSaveAttackers` or
/// `SnipeHighestDefense`.
fn unit_heuristic(
    e: &mut Entry,
    key: &'static str,
    default: UnitHeuristic,
) -> Result<UnitHeuristic> {
    Ok(match e.string(key)? {
        None => default,
        Some("CurrentCardValue") => current_value,
        Some("DefenseHeuristicSaveAttackers") => defense_heuristic_save_attackers,
        Some("SnipeHighestDefense") => snipe_highest_defense,
        Some(other) => {
            return Err(Error::config(
                e.field(key),
                format!(
                    "unknown heuristic `{other}` (known: CurrentCardValue, \
                     DefenseHeuristicSaveAttackers, SnipeHighestDefense)"
                ),
            ));
        }
    })
}

fn combination(r: &mut Resolver, e: &mut Entry, phase: PpPhase) -> Result<Arc<dyn PartialPlayer>> {
    let field = e.field("combination");
    let mut players = Vec::new();
    for (i, name) in e.names("combination")?.into_iter().enumerate() {
        let at = format!("{field}[{i}]");
        let player = r.partial(name, &at)?;
        // Ability and buy players share the action phase and mix in combinations (the
        // built-in BuySafeguard runs AbilityAvoidEconomyWaste); defense and breach do not.
        if !matches!(player.phase(), PpPhase::Ability | PpPhase::Buy) {
            return Err(Error::config(
                at,
                format!(
                    "`{name}` is {} player, but a combination plays in the action phase \
                     (ability and buy players only)",
                    a_phase(player.phase())
                ),
            ));
        }
        players.push(player);
    }
    Ok(Arc::new(Combination { phase, players }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<BotConfig> {
        BotConfig::parse(Library::builtin(), text, "test.toml")
    }

    fn error(text: &str) -> String {
        match parse(text) {
            Ok(_) => panic!("expected an error for:\n{text}"),
            Err(e) => e.to_string(),
        }
    }

    const SMALL: &str = r#"
        [buy_limits]
        Econ = [["Drone", 15], ["Engineer", 2]]
        [partial_players]
        Defend = { type = "Defense_Solver" }
        Econ = { type = "ActionAbility_EconomyDefault" }
        Attack = { type = "ActionAbility_AttackDefault" }
        Clicks = { type = "ActionAbility_Combination", combination = ["Econ", "Attack"] }
        BuyEcon = { type = "ActionBuy_Sequence", buy_sequence = [["Drone", 0]], buy_limits = "Econ" }
        BuyNone = { type = "ActionBuy_Nothing" }
        Breach = { type = "Breach_GreedyKnapsack", low_tech_priority = true }
        [iterators]
        Root = { partial_players = [["Defend"], ["Clicks"], ["BuyEcon", "BuyNone"], ["Breach"]] }
        [players]
        Seq = { type = "Player_PPSequence", partial_players = ["Defend", "Clicks", "BuyEcon", "Breach"] }
        AB = { type = "Player_StackAlphaBeta", evaluations = 10, root_iterator = "Root", iterator = "Root", playout_player = "Seq" }
        UCT = { type = "Player_UCT", traversals = 10, iterator = "Root", playout_player = "Seq" }
        Rand = { type = "Player_RandomFromIterator", iterator = "Root" }
        PGS = { type = "Player_PortfolioGreedySearch", portfolio = "Root", responses = 2 }
        ABW = { type = "Player_StackAlphaBeta", evaluations = 10, iterator = "Root", eval = "WillScore" }
        PM = { type = "Player_PortfolioMCTS", traversals = 10, iterator = "Root", playout_player = "Seq", t_mult = 0.5, weights = { BuyEcon = 0.9 } }
    "#;

    #[test]
    fn the_builtin_configuration_defines_every_bot_of_the_spec() {
        let config = BotConfig::builtin();
        for name in [
            "DocileAI",
            "RandomAI",
            "EasyAI",
            "MediumAI",
            "Playout",
            "ExpertAI",
            "HardAI",
            "HardestAI",
            "HardAIUCT",
            "HardestAIUCT",
            "AB100",
            "UCT100",
            "AB100_Paper",
            "UCT100_Paper",
            "PGSAI",
            "PMCTS100",
        ] {
            assert!(config.player(name).is_some(), "{name}");
        }
        assert_eq!(
            config
                .portfolio("HardIterator_Root")
                .unwrap()
                .combinations(),
            5
        );
        assert_eq!(
            config.portfolio("PaperIterator").unwrap().combinations(),
            36
        );
        // HardIterator = BaseIterator's lists with the ability list filled in.
        assert_eq!(config.portfolio("HardIterator").unwrap().combinations(), 5);
    }

    #[test]
    fn a_small_configuration_resolves_its_names() {
        let config = parse(SMALL).unwrap();
        assert_eq!(
            config.player_names(),
            ["AB", "ABW", "PGS", "PM", "Rand", "Seq", "UCT"]
        );
        assert!(
            matches!(config.player("PGS"), Some(Planner::Pgs(p)) if p.iterations == 1 && p.responses == 2)
        );
        assert!(
            matches!(config.player("ABW"), Some(Planner::AlphaBeta(ab)) if matches!(ab.eval, LeafEval::WillScore))
        );
        assert!(
            matches!(config.player("AB"), Some(Planner::AlphaBeta(ab)) if ab.evaluations == 10 && ab.max_depth == 20)
        );
        assert!(
            matches!(config.player("UCT"), Some(Planner::Uct(u)) if u.c == 2.0 && u.root.combinations() == 2)
        );
        let zero = parse(&SMALL.replace(
            "\"Player_UCT\", traversals = 10,",
            "\"Player_UCT\", traversals = 10, uct_constant = 0,",
        ))
        .unwrap();
        assert!(matches!(zero.player("UCT"), Some(Planner::Uct(u)) if u.c == 0.0));
        let Some(Planner::Pmcts(pm)) = config.player("PM") else {
            panic!("PM is a Portfolio MCTS player");
        };
        assert_eq!((pm.traversals, pm.params.t_mult), (10, 0.5));
        assert!(pm.params.bias && pm.params.pruning);
        assert_eq!((pm.weight("BuyEcon"), pm.weight("BuyNone")), (0.9, 0.5));
        assert_eq!(pm.root.names[2], ["BuyEcon", "BuyNone"]);
    }

    #[test]
    fn the_portfolio_mcts_root_holds_the_p_mcts_scripts() {
        let config = BotConfig::builtin();
        let Some(Planner::Pmcts(pm)) = config.player("PMCTS100") else {
            panic!("PMCTS100 is a Portfolio MCTS player");
        };
        let names: Vec<&str> = pm.root.all_names().collect();
        assert_eq!(names, crate::games::prismata::ai::support::SCRIPTS);
    }

    #[test]
    fn errors_name_the_entry_and_field() {
        let cases = [
            (
                SMALL.replace("Defense_Solver", "Defense_Magic"),
                "partial_players.Defend.type",
            ),
            (
                SMALL.replace("low_tech_priority", "low_tec_priority"),
                "partial_players.Breach.low_tec_priority",
            ),
            (
                SMALL.replace(r#", ["Breach"]] }"#, r#"] }"#),
                "iterators.Root.partial_players",
            ),
            (
                SMALL.replace(r#"["Econ", "Attack"]"#, r#"["Econ", "Atack"]"#),
                "partial_players.Clicks.combination[1]",
            ),
            (
                SMALL.replace(r#"["Engineer", 2]"#, r#"["Enginer", 2]"#),
                "buy_limits.Econ[1]",
            ),
            (
                SMALL.replace("evaluations = 10, ", ""),
                "players.AB.evaluations",
            ),
            (
                SMALL.replace(r#"["Econ", "Attack"]"#, r#"["Econ", "Clicks"]"#),
                "partial_players.Clicks",
            ),
            (
                SMALL.replace(r#"iterator = "Root" }"#, r#"iterator = "Nope" }"#),
                "players.Rand.iterator",
            ),
            (
                SMALL.replace("BuyEcon = 0.9", "BuyEcn = 0.9"),
                "players.PM.weights",
            ),
            (
                SMALL.replace("BuyEcon = 0.9", "BuyEcon = \"high\""),
                "players.PM.weights.BuyEcon",
            ),
            (
                SMALL.replace("t_mult = 0.5", "t_mult = -1"),
                "players.PM.t_mult",
            ),
            (
                SMALL.replace(
                    "\"Player_UCT\", traversals = 10,",
                    "\"Player_UCT\", traversals = 10, uct_constant = -0.1,",
                ),
                "players.UCT.uct_constant",
            ),
            (format!("{SMALL}\n[extra]\n"), "extra"),
        ];
        for (text, field) in cases {
            let e = error(&text);
            assert!(e.contains(field), "`{e}` should name {field}");
        }
        assert!(error("[players\n").contains("test.toml"));
    }

    #[test]
    fn a_partial_player_in_a_slot_of_another_phase_is_an_error_naming_it_and_the_slot() {
        let cases = [
            // A sequence of four breach players (a player, then a playout player).
            (
                SMALL.replace(
                    r#"["Defend", "Clicks", "BuyEcon", "Breach"]"#,
                    r#"["Breach", "Breach", "Breach", "Breach"]"#,
                ),
                "players.Seq.partial_players[0]",
                "`Breach` is a breach player, but slot 0 takes a defense player",
            ),
            (
                SMALL.replace(
                    r#"["Defend", "Clicks", "BuyEcon", "Breach"]"#,
                    r#"["Defend", "Clicks", "BuyEcon", "Clicks"]"#,
                ),
                "players.Seq.partial_players[3]",
                "`Clicks` is an ability player, but slot 3 takes a breach player",
            ),
            (
                SMALL.replace(
                    r#"["Defend", "Clicks", "BuyEcon", "Breach"]"#,
                    r#"["Defend", "BuyEcon", "Clicks", "Breach"]"#,
                ),
                "players.Seq.partial_players[1]",
                "slot 1 takes an ability player",
            ),
            // An iterator (searched by AB, UCT, PGS, PM, Rand) with a list in the wrong place.
            (
                SMALL.replace(
                    r#"[["Defend"], ["Clicks"], ["BuyEcon", "BuyNone"], ["Breach"]]"#,
                    r#"[["Defend"], ["Clicks"], ["BuyEcon", "Breach"], ["Breach"]]"#,
                ),
                "iterators.Root.partial_players[2][1]",
                "`Breach` is a breach player, but slot 2 takes a buy player",
            ),
            (
                SMALL.replace(
                    r#"[["Defend"], ["Clicks"], ["BuyEcon", "BuyNone"], ["Breach"]]"#,
                    r#"[["Breach"], ["Clicks"], ["BuyEcon"], ["Defend"]]"#,
                ),
                "iterators.Root.partial_players[0][0]",
                "slot 0 takes a defense player",
            ),
            // A combination nesting a defense player into the action phase.
            (
                SMALL.replace(r#"["Econ", "Attack"]"#, r#"["Econ", "Defend"]"#),
                "partial_players.Clicks.combination[1]",
                "`Defend` is a defense player, but a combination plays in the action phase",
            ),
        ];
        for (text, field, says) in cases {
            let e = error(&text);
            assert!(e.contains(field), "`{e}` should name {field}");
            assert!(e.contains(says), "`{e}` should say {says}");
        }
        // An included iterator's lists are checked where they are defined, and a combination
        // of ability and buy players serves either action slot.
        let extended = SMALL
            .replace(
                "[iterators]",
                "Mixed = { type = \"ActionBuy_Combination\", combination = [\"Econ\", \"BuyNone\"] }\n\
                 [iterators]",
            )
            .replace(
                "Root = {",
                "Wider = { include = \"Root\", partial_players = [[], [], [\"Mixed\"], []] }\nRoot = {",
            );
        let config = parse(&extended).unwrap();
        assert_eq!(config.portfolio("Wider").unwrap().combinations(), 3);
    }
}
