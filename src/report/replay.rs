//! A game as pictures: one frame per turn (the board as the game draws it,
//! [`crate::board::Drawing`]), a slider with play and pause, the actions of each turn beside
//! the board and the scores over time. [`widget`] is embeddable (the run explorer shows one
//! per elite card); [`page`](fn@page) is a replay on its own page. A page stores each distinct SVG part
//! once, as markup in a template shared by all its replays ([`share_parts`],
//! [`shared_parts`]), the game's symbols once ([`defs`]), and each frame as the parts that
//! changed since the frame before.

use std::collections::HashMap;

use maud::{Markup, PreEscaped, html};
use serde::Serialize;

use super::page;
use crate::board::{Drawing, LegendEntry};

/// How a replayed game came about: enough to play it again.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplaySource {
    /// The program that plays it (`playstyles`, or a library user's binary).
    pub program: String,
    /// The game's registry name.
    pub game: String,
    /// The level, as `--level` takes it.
    pub level: String,
    /// The match seed.
    pub seed: u64,
    /// One agent spec per seat.
    pub agents: Vec<String>,
}

impl ReplaySource {
    /// The command that plays the game again and writes its replay.
    pub fn command(&self) -> String {
        format!(
            "{} replay --game {} --level {} --agents '{}' --seed {} --out replay.html",
            self.program,
            self.game,
            self.level,
            self.agents.join(","),
            self.seed
        )
    }
}

/// One frame: the board after a turn (or at the start).
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// Indices into [`Replay::parts`] (or the page's shared parts, [`share_parts`]), in
    /// paint order.
    pub parts: Vec<u32>,
    /// What the frame shows ("start", "round 3, Xin-Xi", …).
    pub caption: String,
    /// The actions of the turn that led here, in words.
    pub actions: Vec<String>,
    /// Every seat's score in this frame.
    pub scores: Vec<f64>,
}

/// A frame as a page stores it: its parts in full when it is the first or their number
/// changed (`p`), else only the (position, part) pairs that differ from the frame before (`d`);
/// its actions with repeats folded (`click Drone ×14`).
#[derive(Serialize)]
struct WireFrame<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    p: Option<&'a [u32]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    d: Option<Vec<[u32; 2]>>,
    c: &'a str,
    a: Vec<String>,
    s: &'a [f64],
}

/// `actions` with each run of equal ones written once, `×N` after it when N > 1.
fn runs(actions: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < actions.len() {
        let n = actions[i..]
            .iter()
            .take_while(|a| **a == actions[i])
            .count();
        out.push(if n > 1 {
            format!("{} ×{n}", actions[i])
        } else {
            actions[i].clone()
        });
        i += n;
    }
    out
}

/// A replay as a page stores it (the script's `data`); its parts are the page's
/// ([`shared_parts`]).
#[derive(Serialize)]
struct Wire<'a> {
    frames: Vec<WireFrame<'a>>,
}

impl Replay {
    fn wire(&self) -> Wire<'_> {
        let mut frames = Vec::with_capacity(self.frames.len());
        let mut before: Option<&[u32]> = None;
        for f in &self.frames {
            let (p, d) = match before {
                Some(b) if b.len() == f.parts.len() => {
                    let d = (0u32..)
                        .zip(b.iter().zip(&f.parts))
                        .filter(|(_, (x, y))| x != y)
                        .map(|(i, (_, &y))| [i, y])
                        .collect();
                    (None, Some(d))
                }
                _ => (Some(f.parts.as_slice()), None),
            };
            frames.push(WireFrame {
                p,
                d,
                c: &f.caption,
                a: runs(&f.actions),
                s: &f.scores,
            });
            before = Some(&f.parts);
        }
        Wire { frames }
    }
}

/// Moves the parts of `replays` into one list that the page holds once ([`shared_parts`]),
/// where [`widget`] finds them: replays of games on the same level share most of their
/// pictures. Returns that list.
pub fn share_parts<'a>(replays: impl Iterator<Item = &'a mut Replay>) -> Vec<String> {
    let mut all: Vec<String> = Vec::new();
    let mut index: HashMap<String, u32> = HashMap::new();
    for r in replays {
        let map: Vec<u32> = std::mem::take(&mut r.parts)
            .into_iter()
            .map(|p| {
                let next = all.len() as u32;
                *index.entry(p).or_insert_with_key(|p| {
                    all.push(p.clone());
                    next
                })
            })
            .collect();
        for f in &mut r.frames {
            for k in &mut f.parts {
                *k = map[*k as usize];
            }
        }
        r.index.clear();
    }
    all
}

/// A game's SVG definitions, held once by a page (an invisible picture's `<defs>`).
pub fn defs(defs: &str) -> Markup {
    html! {
        svg class="defs" width="0" height="0" style="position:absolute" xmlns="http://www.w3.org/2000/svg" {
            defs { (PreEscaped(defs)) }
        }
    }
}

/// The page's parts ([`share_parts`]) as SVG markup in a template (parsed once, never shown),
/// which [`SCRIPT`] copies from. Each part is one element, so the `k`-th child is part `k`.
pub fn shared_parts(parts: &[String]) -> Markup {
    html! {
        template class="part-pool" {
            svg xmlns="http://www.w3.org/2000/svg" {
                @for p in parts { (PreEscaped(p)) }
            }
        }
    }
}

/// A recorded game, ready to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Replay {
    /// How to play it again.
    pub source: ReplaySource,
    /// Seat names ("Xin-Xi, pmcts(...)").
    pub players: Vec<String>,
    /// The result in words.
    pub result: String,
    /// Picture size in SVG units (the largest frame's).
    pub width: f64,
    /// See [`Replay::width`].
    pub height: f64,
    /// Every distinct part of every frame.
    pub parts: Vec<String>,
    /// The frames in order.
    pub frames: Vec<Frame>,
    /// The symbols of the pictures.
    pub legend: Vec<LegendEntry>,
    /// The SVG definitions the parts refer to ([`crate::kit::GameKit::board_defs`]).
    pub defs: String,
    index: HashMap<String, u32>,
}

impl Replay {
    /// An empty replay of the game `source` describes between `players`, drawn with the
    /// symbols `legend` and the definitions `defs`.
    pub fn new(
        source: ReplaySource,
        players: Vec<String>,
        legend: Vec<LegendEntry>,
        defs: String,
    ) -> Self {
        Replay {
            source,
            players,
            result: String::new(),
            width: 0.0,
            height: 0.0,
            parts: Vec::new(),
            frames: Vec::new(),
            legend,
            defs,
            index: HashMap::new(),
        }
    }

    /// Adds a frame showing `drawing`, storing only the parts not seen before.
    pub fn push(
        &mut self,
        drawing: Drawing,
        caption: String,
        actions: Vec<String>,
        scores: Vec<f64>,
    ) {
        self.width = self.width.max(drawing.width);
        self.height = self.height.max(drawing.height);
        let parts = drawing
            .parts
            .into_iter()
            .map(|p| {
                let next = self.parts.len() as u32;
                *self.index.entry(p).or_insert_with_key(|p| {
                    self.parts.push(p.clone());
                    next
                })
            })
            .collect();
        self.frames.push(Frame {
            parts,
            caption,
            actions,
            scores,
        });
    }
}

/// Colours of the seats' score lines.
const SEAT_COLOURS: [&str; 5] = ["#c0392b", "#2162a8", "#e67e22", "#7d3c98", "#16a085"];

/// The scores over the frames as a small line chart with a cursor at frame 0.
fn score_chart(r: &Replay) -> Markup {
    let (w, h, pad) = (360.0, 120.0, 44.0);
    let n = r.frames.len().max(2) - 1;
    let top = r
        .frames
        .iter()
        .flat_map(|f| f.scores.iter().copied())
        .fold(1.0f64, f64::max);
    let x = |i: usize| pad + (w - pad - 8.0) * i as f64 / n as f64;
    let y = |v: f64| h - 18.0 - (h - 28.0) * v.max(0.0) / top;
    let seats = r.frames.first().map_or(0, |f| f.scores.len());
    html! {
        svg class="scores" width=(w) height=(h) viewBox={"0 0 " (w) " " (h)} {
            line x1=(pad) y1=(y(0.0)) x2=(w - 8.0) y2=(y(0.0)) stroke="#999" {}
            text x=(pad - 4.0) y=(y(top) + 4.0) font-size="10" text-anchor="end" { (top.round()) }
            text x=(pad - 4.0) y=(y(0.0) + 4.0) font-size="10" text-anchor="end" { "0" }
            text x=(w / 2.0) y=(h - 4.0) font-size="10" text-anchor="middle" { "turn" }
            @for seat in 0..seats {
                polyline fill="none" stroke=(SEAT_COLOURS[seat % SEAT_COLOURS.len()]) stroke-width="2"
                    points=(r.frames.iter().enumerate()
                        .map(|(i, f)| format!("{:.1},{:.1}", x(i), y(f.scores[seat])))
                        .collect::<Vec<_>>().join(" ")) {}
            }
            line class="cursor" x1=(x(0)) y1="6" x2=(x(0)) y2=(y(0.0)) stroke="#333" stroke-dasharray="3 2"
                data-x0=(x(0)) data-dx=(x(1) - x(0)) {}
        }
    }
}

/// A replay as an embeddable block: board, controls, actions, scores, legend and the command
/// that plays the game again. [`SCRIPT`] brings every such block to life.
pub fn widget(r: &Replay) -> Markup {
    let data = serde_json::to_string(&r.wire()).unwrap_or_default();
    html! {
        div class="replay" data-replay=(data) {
            div class="controls" {
                button class="play" type="button" { "Play" }
                input class="slider" type="range" min="0" max=(r.frames.len().saturating_sub(1)) value="0";
                span class="caption" {}
            }
            div class="replay-body" {
                div class="board" {
                    svg width=(r.width) height=(r.height) viewBox={"0 0 " (r.width) " " (r.height)}
                        xmlns="http://www.w3.org/2000/svg" {}
                }
                div {
                    strong { "Actions of this turn" }
                    ol class="actions" {}
                    strong { "Scores" }
                    div {
                        @for (seat, name) in r.players.iter().enumerate() {
                            span style={"color:" (SEAT_COLOURS[seat % SEAT_COLOURS.len()])} { "■ " }
                            (name) br;
                        }
                    }
                    (score_chart(r))
                }
            }
            p { strong { "Result: " } (r.result) }
            p class="muted" { "Play it again: " code { (r.source.command()) } }
        }
    }
}

/// The legend of a replay's symbols.
pub fn legend(entries: &[LegendEntry]) -> Markup {
    html! {
        @if !entries.is_empty() {
            div class="legend" {
                @for e in entries {
                    div {
                        svg width="32" height="32" viewBox="0 0 32 32" { (maud::PreEscaped(&e.symbol)) }
                        span { (e.label) }
                    }
                }
            }
        }
    }
}

/// Brings every `.replay` block of a page to life: draws the frame the slider points at,
/// lists its actions, moves the score cursor, plays and pauses. A page address ending in
/// `#frame=N` opens every replay at frame N (from 1). Sets `data-ready` on each block once
/// drawn, and `data-ready-ms` on the page (milliseconds since the page was requested) once
/// all are (for tests).
pub const SCRIPT: &str = r#"
var pool = document.querySelector('template.part-pool');
var parts = pool ? Array.prototype.slice.call(pool.content.firstElementChild.children) : [];
document.querySelectorAll('.replay').forEach(function (root) {
  var data = JSON.parse(root.dataset.replay);
  var shown = [];
  var frames = data.frames.map(function (f) {
    if (f.p) { shown = f.p.slice(); } else {
      shown = shown.slice();
      f.d.forEach(function (x) { shown[x[0]] = x[1]; });
    }
    return shown;
  });
  var board = root.querySelector('.board svg');
  var slider = root.querySelector('.slider');
  var caption = root.querySelector('.caption');
  var list = root.querySelector('.actions');
  var cursor = root.querySelector('.cursor');
  var button = root.querySelector('.play');
  var timer = null;
  function show(i) {
    var f = data.frames[i];
    board.replaceChildren.apply(board, frames[i].map(function (k) { return parts[k].cloneNode(true); }));
    caption.textContent = 'frame ' + (i + 1) + ' of ' + data.frames.length + ': ' + f.c;
    list.innerHTML = '';
    f.a.forEach(function (a) {
      var li = document.createElement('li');
      li.textContent = a;
      list.appendChild(li);
    });
    if (cursor) {
      var x = parseFloat(cursor.dataset.x0) + i * parseFloat(cursor.dataset.dx);
      cursor.setAttribute('x1', x);
      cursor.setAttribute('x2', x);
    }
  }
  function stop() { clearInterval(timer); timer = null; button.textContent = 'Play'; }
  slider.addEventListener('input', function () { show(+slider.value); });
  button.addEventListener('click', function () {
    if (timer) { stop(); return; }
    if (+slider.value >= data.frames.length - 1) { slider.value = 0; }
    button.textContent = 'Pause';
    timer = setInterval(function () {
      if (+slider.value >= data.frames.length - 1) { stop(); return; }
      slider.value = +slider.value + 1;
      show(+slider.value);
    }, 500);
  });
  var start = /frame=(\d+)/.exec(location.hash);
  slider.value = start ? Math.min(+start[1], data.frames.length) - 1 : 0;
  show(+slider.value);
  root.dataset.ready = data.frames.length;
});
document.documentElement.dataset.readyMs = Math.round(performance.now());
"#;

/// A replay on a page of its own.
pub fn page(r: &Replay) -> String {
    let mut r = r.clone();
    let parts = share_parts(std::iter::once(&mut r));
    let r = &r;
    let title = format!("{} replay: {}", r.source.game, r.players.join(" vs "));
    let subtitle = format!(
        "level {}, seed {}, {} frames (one per turn)",
        r.source.level,
        r.source.seed,
        r.frames.len()
    );
    let body = html! {
        (defs(&r.defs))
        (shared_parts(&parts))
        section {
            (widget(r))
        }
        @if !r.legend.is_empty() {
            section style="max-width: 900px" {
                h2 { "Legend" }
                (legend(&r.legend))
            }
        }
    };
    page::page(&title, &subtitle, body, SCRIPT)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source() -> ReplaySource {
        ReplaySource {
            program: "playstyles".into(),
            game: "toy".into(),
            level: "1".into(),
            seed: 7,
            agents: vec!["random".into(), "mcts(budget=10)".into()],
        }
    }

    fn drawing(parts: &[&str]) -> Drawing {
        Drawing {
            width: 10.0,
            height: 20.0,
            parts: parts.iter().map(|p| p.to_string()).collect(),
        }
    }

    #[test]
    fn runs_of_equal_actions_are_written_once_with_their_count() {
        let a = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(
            runs(&a(&["click", "click", "click", "buy", "click"])),
            a(&["click ×3", "buy", "click"])
        );
        assert!(runs(&[]).is_empty());
    }

    #[test]
    fn frames_share_parts_stored_once() {
        let mut r = Replay::new(
            source(),
            vec!["a".into(), "b".into()],
            Vec::new(),
            String::new(),
        );
        r.push(
            drawing(&["<a/>", "<b/>"]),
            "start".into(),
            vec![],
            vec![0.0, 0.0],
        );
        r.push(
            drawing(&["<a/>", "<c/>"]),
            "round 1".into(),
            vec!["x".into()],
            vec![1.0, 2.0],
        );
        assert_eq!(r.parts, ["<a/>", "<b/>", "<c/>"]);
        assert_eq!(r.frames[0].parts, [0, 1]);
        assert_eq!(r.frames[1].parts, [0, 2]);
        assert_eq!((r.width, r.height), (10.0, 20.0));
    }

    #[test]
    fn a_page_names_the_command_that_plays_the_game_again_and_escapes_its_data() {
        let mut r = Replay::new(
            source(),
            vec!["<a>".into(), "b".into()],
            Vec::new(),
            String::new(),
        );
        r.push(
            drawing(&["<rect/>"]),
            "start".into(),
            vec![],
            vec![0.0, 1.0],
        );
        r.result = "seat 1 won".into();
        let html = page(&r);
        assert!(html.contains(
            "playstyles replay --game toy --level 1 --agents 'random,mcts(budget=10)' --seed 7"
        ));
        assert!(html.contains("&lt;a&gt;"));
        // The frame data sits in an attribute; the parts in the page's template.
        assert!(html.contains("data-replay=\"{"));
        assert!(html.contains("<template class=\"part-pool\"><svg xmlns=\"http://www.w3.org/2000/svg\"><rect/></svg></template>"));
    }
}
