use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::cli::{path_arg, playstyles, read_text, scratch, stderr};

/// The headless browser: `$CHROMIUM` (a path, or a name on the path), else `chromium`,
/// `chromium-browser` or `google-chrome` on the path. `tests/run.sh`, the test command, installs
/// Debian's `chromium` when none is there. Without one the browser tests fail: they never skip.
fn browser() -> PathBuf {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return PathBuf::from(p);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            let p = dir.join(name);
            if p.is_file() {
                return p;
            }
        }
    }
    panic!(
        "the browser tests need headless Chromium, and there is none: CHROMIUM is not set and \
         no chromium, chromium-browser or google-chrome is on PATH. Run the tests with \
         `tests/run.sh`, which installs Debian's chromium, or set CHROMIUM to a Chromium or \
         Chrome binary"
    );
}

/// What the browser made of a page: the DOM after its scripts ran, and the console messages
/// it logged.
struct Loaded {
    dom: String,
    console: Vec<String>,
}

/// Loads `page` from disk in headless Chromium (a fresh profile, no network chatter) and
/// dumps its DOM; with `screenshot`, also saves a picture of it there.
fn load(page: &Path, profile: &Path, screenshot: Option<&Path>) -> Loaded {
    load_at(page, "", profile, screenshot)
}

/// [`load`] with `fragment` (`#…`) at the end of the page's address.
fn load_at(page: &Path, fragment: &str, profile: &Path, screenshot: Option<&Path>) -> Loaded {
    load_with(page, fragment, profile, screenshot, &[])
}

/// [`load_at`] with more browser `flags`.
fn load_with(
    page: &Path,
    fragment: &str,
    profile: &Path,
    screenshot: Option<&Path>,
    flags: &[&str],
) -> Loaded {
    let url = format!(
        "file://{}{fragment}",
        page.canonicalize().unwrap().display()
    );
    let run = |extra: &[String]| {
        let o = Command::new(browser())
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--enable-logging=stderr",
                "--v=0",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .args(flags)
            .args(extra)
            .arg(&url)
            .output()
            .unwrap_or_else(|e| panic!("the browser {} does not start: {e}", browser().display()));
        assert!(o.status.success(), "chromium failed: {}", stderr(&o));
        o
    };
    let o = run(&["--dump-dom".to_string()]);
    if let Some(png) = screenshot {
        run(&[
            "--window-size=1400,1800".to_string(),
            format!("--screenshot={}", png.display()),
        ]);
        let bytes = std::fs::read(png).expect("a screenshot");
        assert!(
            bytes.starts_with(b"\x89PNG") && bytes.len() > 10_000,
            "empty screenshot"
        );
    }
    Loaded {
        dom: String::from_utf8_lossy(&o.stdout).into_owned(),
        console: stderr(&o)
            .lines()
            .filter(|l| l.contains(":CONSOLE"))
            .map(String::from)
            .collect(),
    }
}

/// The number in `attr="N"` of the first element that has it.
fn number_attr(dom: &str, attr: &str) -> Option<usize> {
    let start = dom.find(&format!("{attr}=\""))? + attr.len() + 2;
    dom[start..].split('"').next()?.parse().ok()
}

#[test]
fn the_browser_check_sees_script_errors() {
    let dir = scratch("browser", "broken");
    let page = dir.join("broken.html");
    std::fs::write(
        &page,
        "<!DOCTYPE html><html><body><script>throw new Error('boom')</script></body></html>",
    )
    .unwrap();
    let loaded = load(&page, &dir.join("profile"), None);
    assert!(
        loaded.console.iter().any(|l| l.contains("boom")),
        "{:?}",
        loaded.console
    );
}

/// A whole game (the 50-round cap) of the experiments' agents at a small budget: the page is
/// under 2 MB and draws its first frame within a second of being requested.
#[test]
fn a_replay_page_draws_a_frame_per_turn_in_a_browser() {
    let dir = scratch("browser", "replay");
    let page = dir.join("replay.html");
    let o = playstyles(&[
        "replay",
        "--level",
        "1590557911279",
        "--agents",
        "pmcts(budget=200),mcts(budget=200)",
        "--seed",
        "1",
        "--out",
        path_arg(&page),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // "wrote PAGE (N frames, …)"
    let said = String::from_utf8_lossy(&o.stdout).into_owned();
    let frames: usize = said
        .split(" (")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{said}"));
    assert!(said.contains("after 51 rounds"), "{said}");
    let bytes = std::fs::metadata(&page).unwrap().len();
    assert!(bytes < 2 << 20, "{bytes} bytes");
    let loaded = load(&page, &dir.join("profile"), Some(&dir.join("replay.png")));
    assert!(loaded.console.is_empty(), "{:?}", loaded.console);
    assert_eq!(number_attr(&loaded.dom, "data-ready"), Some(frames));
    let ms = number_attr(&loaded.dom, "data-ready-ms").expect("the page says when it was ready");
    assert!(ms < 1000, "ready after {ms} ms");
    // The board holds the first frame: one group per tile of the 11 × 11 level.
    let board = loaded.dom.split("class=\"board\"").nth(1).unwrap();
    let board = board.split("</svg>").next().unwrap();
    assert!(
        board.matches("<g transform=\"translate(").count() >= 121,
        "{board}"
    );
    assert!(loaded.dom.contains("frame 1 of"));
}

#[test]
fn a_run_explorer_shows_one_card_per_elite_in_a_browser() {
    let dir = scratch("browser", "report");
    let config = dir.join("tiny.toml");
    std::fs::write(
        &config,
        r#"
seed = 3
batch_size = 4
[evaluation]
levels = [1590191438878]
repetitions = 1
player = "pmcts(bias=true,pruning=false,budget=10)"
baseline = "mcts(budget=10)"
[genome]
scripts = ["spawn.strongest", "spawn.defensive", "research.roads"]
[[features]]
name = "attacks"
min = 0
max = 20
step = 2
[[features]]
name = "support_balance"
min = -5
max = 5
step = 1
[map_elites]
adaptive = false
random_init = 4
iterations = 4
"#,
    )
    .unwrap();
    let run = dir.join("run");
    let o = playstyles(&[
        "evolve",
        path_arg(&config),
        "--out",
        path_arg(&run),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let elites = read_text(&run.join("archive.csv")).lines().count() - 1;
    let loaded = load(
        &run.join("report.html"),
        &dir.join("profile"),
        Some(&dir.join("report.png")),
    );
    assert!(loaded.console.is_empty(), "{:?}", loaded.console);
    assert_eq!(number_attr(&loaded.dom, "data-cards"), Some(elites));
    // One card shown, the others hidden; every card's replay drew its first frame.
    assert_eq!(loaded.dom.matches("class=\"card\"").count(), elites);
    assert_eq!(
        loaded.dom.matches("class=\"card\" data-cell=").count(),
        elites
    );
    assert_eq!(
        loaded.dom.matches("hidden=\"\"").count(),
        elites - 1,
        "all but one card are hidden"
    );
    assert_eq!(loaded.dom.matches("data-ready=\"").count(), elites);

    // The opposite corners side by side (the paper's Figure 2), as the button or `#cell=A,B`
    // shows them: two cards visible, two cells marked.
    let html = read_text(&run.join("report.html"));
    let pair = html
        .split("class=\"corners\" type=\"button\" data-cells=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("a button for the opposite corners");
    let both = load_at(
        &run.join("report.html"),
        &format!("#cell={pair}"),
        &dir.join("profile"),
        None,
    );
    assert!(both.console.is_empty(), "{:?}", both.console);
    assert_eq!(both.dom.matches("hidden=\"\"").count(), elites - 2);
    assert_eq!(both.dom.matches("class=\"hit chosen\"").count(), 2);

    // Clicks, through a page that holds the report in a frame and drives it: a cell shows
    // its card alone, "compare" and a second cell show both, Play moves the replay on.
    assert!(
        elites >= 3,
        "the click test needs three elites, the run has {elites}"
    );
    let harness = run.join("harness.html");
    std::fs::write(&harness, HARNESS).unwrap();
    let driven = load_with(
        &harness,
        "",
        &dir.join("profile"),
        None,
        &[
            "--allow-file-access-from-files",
            "--virtual-time-budget=5000",
        ],
    );
    assert!(driven.console.is_empty(), "{:?}", driven.console);
    let result = driven
        .dom
        .split("data-result=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("the harness ran")
        .replace("&quot;", "\"");
    let cells: Vec<&str> = html
        .split("class=\"hit")
        .skip(1)
        .filter_map(|s| s.split("data-cell=\"").nth(1)?.split('"').next())
        .collect();
    assert!(
        result.contains(&format!("\"one\":[\"{}\"]", cells[1])),
        "{result} {cells:?}"
    );
    assert!(
        result.contains(&format!("\"two\":[\"{}\",\"{}\"]", cells[1], cells[2])),
        "{result}"
    );
    let slider: u32 = result
        .split("\"slider\":\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .and_then(|n| n.parse().ok())
        .expect("a slider position");
    assert!(
        slider >= 2,
        "Play moved the replay to frame {slider} only: {result}"
    );
}

/// Drives the run explorer in a frame: clicks the second cell, ticks "compare", clicks the
/// third, presses Play on the first shown card and, 1.6 s (of virtual time) later, writes
/// the cards shown and the slider's position into `data-result`.
const HARNESS: &str = r#"<!DOCTYPE html><html><body>
<iframe id="f" src="report.html" width="1400" height="900"></iframe>
<script>
var f = document.getElementById('f');
f.onload = function () {
  var d = f.contentDocument, out = {};
  var hits = d.querySelectorAll('.map .hit');
  function visible() {
    return Array.prototype.filter.call(d.querySelectorAll('.card'), function (c) {
      return !c.hidden;
    }).map(function (c) { return c.dataset.cell; });
  }
  hits[1].dispatchEvent(new MouseEvent('click', {bubbles: true}));
  out.one = visible();
  d.querySelector('.compare').checked = true;
  hits[2].dispatchEvent(new MouseEvent('click', {bubbles: true}));
  out.two = visible();
  var card = d.querySelector('.card:not([hidden])');
  card.querySelector('.play').click();
  setTimeout(function () {
    out.slider = card.querySelector('.slider').value;
    document.body.setAttribute('data-result', JSON.stringify(out));
  }, 1600);
};
</script></body></html>"#;
