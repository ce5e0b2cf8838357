//! The run explorer (`report.html`): a MAP-Elites run on one page. The map as the heatmap
//! the run drew, each occupied cell clickable; for the chosen cell an elite card (weights as
//! bars, features with their spread and the cell's bounds, win rate with its interval,
//! validation and re-evaluation where the run has them, the agent spec to copy, its tier, its
//! ratings on a ladder (with the ladder's chart), a
//! replay of one of its games); the run's roster (its chart and each member's style); the
//! run's progress and configuration. Knows nothing of games:
//! [`crate::experiments::report`] fills an [`Explorer`].

use maud::{Markup, PreEscaped, html};

use super::page;
use super::replay::{self, Replay};
use crate::board::LegendEntry;

/// One feature of an elite.
#[derive(Clone, Debug, PartialEq)]
pub struct FeatureRow {
    /// The feature's name.
    pub name: String,
    /// Mean over the elite's games.
    pub mean: f64,
    /// Standard deviation over its games.
    pub sd: f64,
    /// The bounds of the elite's cell along this feature, in words.
    pub cell: String,
}

/// One elite, as its card shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Card {
    /// Cell index in the archive.
    pub cell: usize,
    /// Left, top and side of the cell's square in the heatmap, in pixels.
    pub square: [i32; 3],
    /// The cell in words (each feature's bounds).
    pub title: String,
    /// (script, weight), in genome order.
    pub weights: Vec<(String, f64)>,
    /// The features.
    pub features: Vec<FeatureRow>,
    /// Win rate over the elite's games.
    pub win_rate: f64,
    /// Its 95 % Wilson interval.
    pub interval: (f64, f64),
    /// Games, wins and draws behind the win rate.
    pub games: u32,
    /// See [`Card::games`].
    pub wins: u32,
    /// See [`Card::games`].
    pub draws: u32,
    /// (label, value) rows of the elite's confidence under adaptive sampling: its games and
    /// each feature's standard error against the target (empty: a run without it).
    pub confidence: Vec<(String, String)>,
    /// A short note on the cell's confidence for its tooltip (empty: none).
    pub confidence_note: String,
    /// (label, value) rows of the run's validation of this elite (empty: not validated).
    pub validation: Vec<(String, String)>,
    /// (label, value) rows of the run's re-evaluation of this elite (empty: none).
    pub reevaluation: Vec<(String, String)>,
    /// The agent spec that plays as this elite.
    pub spec: String,
    /// Its difficulty tier, if the run has `tiers.toml` and the elite is in it.
    pub tier: Option<String>,
    /// (label, value) rows of its ratings on a ladder, one per agent of the ladder it is
    /// (itself, or at a dial setting; empty: not on the page's ladder).
    pub rating: Vec<(String, String)>,
    /// One of its games, if recorded.
    pub replay: Option<Replay>,
}

/// Everything the run explorer shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Explorer {
    /// The run's name.
    pub name: String,
    /// A line under the title (game, elites, coverage, QD score).
    pub subtitle: String,
    /// The heatmap as the run drew it (`heatmap.svg`'s markup).
    pub heatmap_svg: String,
    /// The heatmap's size in pixels.
    pub heatmap_size: (u32, u32),
    /// One card per elite.
    pub cards: Vec<Card>,
    /// The card shown first (index into `cards`).
    pub first: usize,
    /// Two cells (elites nearest opposite corners of the map) to show side by side at a
    /// click, the paper's Figure 2 for any map.
    pub opposite: Option<(usize, usize)>,
    /// The progress chart (SVG markup).
    pub progress_svg: String,
    /// (setting, value) rows of the run's configuration.
    pub config: Vec<(String, String)>,
    /// The symbols of the replays' boards.
    pub legend: Vec<LegendEntry>,
    /// The parts the cards' replays share ([`replay::share_parts`]).
    pub parts: Vec<String>,
    /// The SVG definitions the parts and the legend refer to.
    pub defs: String,
    /// A ladder the elites were rated on: a line saying which, and its chart (SVG markup).
    pub ladder: Option<(String, String)>,
    /// The run's roster, if it has one.
    pub roster: Option<RosterSection>,
}

/// A roster of personalities, as the page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct RosterSection {
    /// A line saying how well its members are told apart.
    pub note: String,
    /// Its chart (SVG markup).
    pub chart_svg: String,
    /// Its members, in pick order.
    pub members: Vec<RosterMember>,
}

/// One member of a roster.
#[derive(Clone, Debug, PartialEq)]
pub struct RosterMember {
    /// Its name.
    pub name: String,
    /// Its elite's cell.
    pub cell: usize,
    /// Its win rate, in words.
    pub win_rate: String,
    /// Its accuracy from one and three held-out games, in words.
    pub accuracy: String,
    /// What sets it apart, in words.
    pub style: Vec<String>,
    /// The spec that plays it.
    pub spec: String,
}

/// The weights as horizontal bars, one per script.
fn weight_bars(weights: &[(String, f64)]) -> Markup {
    let top = weights.iter().map(|w| w.1).fold(1.0f64, f64::max);
    let (label_w, bar_w, row_h) = (190.0, 200.0, 18.0);
    let h = row_h * weights.len() as f64 + 4.0;
    html! {
        svg class="weights" width=(label_w + bar_w + 50.0) height=(h) {
            @for (i, (name, w)) in weights.iter().enumerate() {
                @let y = row_h * i as f64 + 2.0;
                text x=(label_w - 6.0) y=(y + 12.0) font-size="12" text-anchor="end" { (name) }
                rect x=(label_w) y=(y + 2.0) width=(bar_w) height=(row_h - 5.0) fill="#eee" {}
                rect x=(label_w) y=(y + 2.0) width=(bar_w * w / top) height=(row_h - 5.0) fill="#2162a8" {}
                text x=(label_w + bar_w + 6.0) y=(y + 12.0) font-size="12" { (format!("{w:.2}")) }
            }
        }
    }
}

/// A two-column table of (label, value) rows.
fn rows_table(rows: &[(String, String)]) -> Markup {
    html! {
        table {
            @for (k, v) in rows {
                tr { th { (k) } td { (v) } }
            }
        }
    }
}

fn card(c: &Card, shown: bool) -> Markup {
    let pct = |v: f64| format!("{:.1} %", 100.0 * v);
    html! {
        div class="card" data-cell=(c.cell) hidden[!shown] {
            h2 { "Elite of cell " (c.cell) ": " (c.title) }
            p {
                strong { "Win rate " (pct(c.win_rate)) }
                " (95 % interval " (pct(c.interval.0)) " to " (pct(c.interval.1)) ") over "
                (c.games) " games: " (c.wins) " wins, " (c.draws) " draws"
                @if let Some(t) = &c.tier { " · tier " strong { (t) } }
                @if let Some((_, v)) = c.rating.first() { " · rating " strong { (v) } }
            }
            h3 { "Weights" }
            (weight_bars(&c.weights))
            h3 { "Features" }
            table {
                tr { th { "feature" } th { "mean ± sd over its games" } th { "cell bounds" } }
                @for f in &c.features {
                    tr { td { (f.name) } td { (format!("{:.2} ± {:.2}", f.mean, f.sd)) } td { (f.cell) } }
                }
            }
            @if !c.confidence.is_empty() {
                h3 { "Confidence (adaptive sampling)" }
                (rows_table(&c.confidence))
            }
            @if !c.validation.is_empty() {
                h3 { "Validation on held-out levels" }
                (rows_table(&c.validation))
            }
            @if !c.reevaluation.is_empty() {
                h3 { "Re-evaluation on fresh games" }
                (rows_table(&c.reevaluation))
            }
            @if !c.rating.is_empty() {
                h3 { "Rating on the ladder" }
                (rows_table(&c.rating))
            }
            h3 { "Agent spec " button class="copy" type="button" { "Copy" } }
            pre class="spec" { (c.spec) }
            @if let Some(r) = &c.replay {
                h3 { "One of its games" }
                (replay::widget(r))
            }
        }
    }
}

/// Shows the card of the clicked cell and marks the cell on the map; with "compare" ticked,
/// the last two clicked cells side by side; the opposite-corners button shows those two;
/// `#cell=N` or `#cell=N,M` in the page address opens those cards. A card's "Copy" button
/// copies its agent spec (or selects it where the page may not write the clipboard).
const SCRIPT: &str = r#"
(function () {
  var cells = document.querySelectorAll('.map .hit');
  var cards = document.querySelectorAll('.card');
  var compare = document.querySelector('.compare');
  var shown = [];
  function show(list) {
    shown = list;
    cards.forEach(function (c) { c.hidden = shown.indexOf(c.dataset.cell) < 0; });
    cells.forEach(function (r) { r.classList.toggle('chosen', shown.indexOf(r.dataset.cell) >= 0); });
  }
  cells.forEach(function (r) {
    r.addEventListener('click', function () {
      var cell = r.dataset.cell;
      if (compare && compare.checked && shown.length && shown[shown.length - 1] !== cell) {
        show([shown[shown.length - 1], cell]);
      } else {
        show([cell]);
      }
    });
  });
  var corners = document.querySelector('.corners');
  if (corners) {
    corners.addEventListener('click', function () {
      if (compare) { compare.checked = true; }
      show(corners.dataset.cells.split(','));
    });
  }
  document.querySelectorAll('.card .copy').forEach(function (b) {
    b.addEventListener('click', function () {
      var spec = b.closest('.card').querySelector('.spec');
      var range = document.createRange();
      range.selectNodeContents(spec);
      var sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      var done = function () { b.textContent = 'Copied'; };
      if (navigator.clipboard) {
        navigator.clipboard.writeText(spec.textContent).then(done, function () {
          b.textContent = 'Selected: press Ctrl+C';
        });
      } else {
        b.textContent = 'Selected: press Ctrl+C';
      }
    });
  });
  var start = /cell=([\d,]+)/.exec(location.hash);
  var first = document.querySelector('.card:not([hidden])');
  show(start ? start[1].split(',').slice(0, 2) : first ? [first.dataset.cell] : []);
  document.body.dataset.cards = cards.length;
})();
"#;

/// Extra style of the explorer.
const CSS: &str = r#"
.map { position: relative; }
.map svg.overlay { position: absolute; left: 0; top: 0; }
.map .hit { fill: transparent; cursor: pointer; }
.map .hit:hover { stroke: #000; stroke-width: 2; }
.map .hit.chosen { stroke: #e74c3c; stroke-width: 4; }
.card h3 { font-size: 14px; margin: 12px 0 4px; }
.card h3 .copy { font-size: 12px; padding: 0 8px; margin-left: 6px; }
.cards { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; flex: 1 1 100%; }
.card { max-width: 1100px; flex: 1 1 560px; min-width: 0; }
"#;

/// The whole page.
pub fn page(e: &Explorer) -> String {
    let (w, h) = e.heatmap_size;
    let first = e.cards.get(e.first).map(|c| c.cell);
    let body = html! {
        style { (PreEscaped(CSS)) }
        (replay::defs(&e.defs))
        (replay::shared_parts(&e.parts))
        section {
            h2 { "The map" }
            p class="muted" {
                "Click a coloured cell to see its elite. "
                label { input class="compare" type="checkbox"; " compare two cells side by side" }
                @if let Some((a, b)) = e.opposite {
                    " "
                    button class="corners" type="button" data-cells={(a) "," (b)} {
                        "Opposite corners: cells " (a) " and " (b)
                    }
                }
            }
            div class="map" style={"width:" (w) "px;height:" (h) "px"} {
                (PreEscaped(&e.heatmap_svg))
                svg class="overlay" width=(w) height=(h) viewBox={"0 0 " (w) " " (h)} {
                    @for c in &e.cards {
                        @let b = c.square;
                        rect class={"hit" @if Some(c.cell) == first { " chosen" }}
                            data-cell=(c.cell) x=(b[0]) y=(b[1]) width=(b[2]) height=(b[2]) {
                            title {
                                "cell " (c.cell) ": " (format!("{:.0} %", 100.0 * c.win_rate))
                                @if !c.confidence_note.is_empty() { " · " (c.confidence_note) }
                            }
                        }
                    }
                }
            }
        }
        section class="cards" {
            @if e.cards.is_empty() {
                p { "The archive holds no elite yet." }
            }
            @for (i, c) in e.cards.iter().enumerate() {
                (card(c, i == e.first))
            }
        }
        @if let Some(r) = &e.roster {
            section {
                h2 { "Roster" }
                p class="muted" { (r.note) }
                (PreEscaped(&r.chart_svg))
                table {
                    tr { th { "member" } th { "cell" } th { "win rate" } th { "named right" } th { "what sets it apart" } }
                    @for m in &r.members {
                        tr {
                            td { strong { (m.name) } br; code { (m.spec) } }
                            td { (m.cell) }
                            td { (m.win_rate) }
                            td { (m.accuracy) }
                            td { ul { @for s in &m.style { li { (s) } } } }
                        }
                    }
                }
            }
        }
        @if let Some((note, svg)) = &e.ladder {
            section {
                h2 { "Ladder" }
                p class="muted" { (note) }
                (PreEscaped(svg))
            }
        }
        section {
            h2 { "Progress" }
            (PreEscaped(&e.progress_svg))
        }
        section {
            h2 { "Configuration" }
            (rows_table(&e.config))
        }
        @if !e.legend.is_empty() {
            section style="max-width: 900px" {
                h2 { "Legend of the boards" }
                (replay::legend(&e.legend))
            }
        }
    };
    let script = format!("{}\n{}", replay::SCRIPT, SCRIPT);
    page::page(
        &format!("Run explorer: {}", e.name),
        &e.subtitle,
        body,
        &script,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn explorer(cards: usize) -> Explorer {
        let card = |i: usize| Card {
            cell: 10 + i,
            square: [0, 0, 5],
            title: format!("a 0–2, b <{i}>"),
            weights: vec![("move.x".into(), 0.5), ("attack.y".into(), 1.0)],
            features: vec![FeatureRow {
                name: "a".into(),
                mean: 1.0,
                sd: 0.5,
                cell: "0–2".into(),
            }],
            win_rate: 0.5,
            interval: (0.3, 0.7),
            games: 20,
            wins: 10,
            draws: 0,
            confidence: vec![("games".into(), "20 (5 repetitions per level)".into())],
            confidence_note: "20 games, SE above target".into(),
            validation: Vec::new(),
            reevaluation: vec![("kept its cell".into(), "yes".into())],
            spec: "pmcts(weights=[move.x=0.5])".into(),
            tier: (i == 0).then(|| "easy".into()),
            rating: if i == 0 {
                vec![("rating".into(), "+120 Elo".into())]
            } else {
                Vec::new()
            },
            replay: None,
        };
        Explorer {
            name: "run".into(),
            subtitle: "2 elites".into(),
            heatmap_svg: "<svg width=\"10\" height=\"10\"></svg>".into(),
            heatmap_size: (10, 10),
            cards: (0..cards).map(card).collect(),
            first: 0,
            opposite: (cards > 1).then_some((10, 11)),
            progress_svg: "<svg></svg>".into(),
            config: vec![("seed".into(), "1".into())],
            legend: Vec::new(),
            parts: Vec::new(),
            defs: String::new(),
            ladder: Some(("ladder x".into(), "<svg id=\"ladder\"></svg>".into())),
            roster: Some(RosterSection {
                note: "2 personalities".into(),
                chart_svg: "<svg id=\"roster\"></svg>".into(),
                members: vec![RosterMember {
                    name: "high-<x>".into(),
                    cell: 10,
                    win_rate: "50 %".into(),
                    accuracy: "90 %".into(),
                    style: vec!["high x: 2× the roster's mean".into()],
                    spec: "roster(file=run/roster.toml,name=high-x)".into(),
                }],
            }),
        }
    }

    #[test]
    fn one_card_per_elite_the_first_shown_each_with_a_clickable_cell() {
        let html = page(&explorer(2));
        assert_eq!(html.matches("class=\"card\"").count(), 2);
        assert_eq!(
            html.matches("class=\"card\" data-cell=\"11\" hidden")
                .count(),
            1
        );
        assert_eq!(html.matches("class=\"hit").count(), 2);
        assert!(html.contains("class=\"hit chosen\" data-cell=\"10\""));
        assert!(html.contains("b &lt;1&gt;"), "titles are escaped");
        assert!(html.contains("kept its cell") && html.contains("tier"));
        assert!(html.contains("class=\"corners\" type=\"button\" data-cells=\"10,11\""));
        assert!(html.contains("Confidence (adaptive sampling)"));
        assert!(html.contains("50 % · 20 games, SE above target</title>"));
        assert!(html.contains("Rating on the ladder") && html.contains("rating <strong>+120 Elo"));
        assert!(html.contains("<h2>Ladder</h2>") && html.contains("<svg id=\"ladder\">"));
        assert!(html.contains("<h2>Roster</h2>") && html.contains("<svg id=\"roster\">"));
        assert!(html.contains("high-&lt;x&gt;") && html.contains("<li>high x: 2×"));
    }

    #[test]
    fn an_empty_archive_says_so() {
        let e = explorer(0);
        assert!(page(&e).contains("no elite yet"));
    }
}
