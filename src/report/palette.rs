//! The colours the charts share: the category colours of matplotlib's "tab10" for series
//! and signs (blue, red, green), a dark grey for frames and a light grey for shaded bands.

use plotters::style::RGBColor;

/// Series and spans ("tab10" blue).
pub const BLUE: RGBColor = RGBColor(31, 119, 180);
/// What lies below a reference, or the best of a series ("tab10" red).
pub const RED: RGBColor = RGBColor(214, 39, 40);
/// What lies above a reference, or a mean ("tab10" green).
pub const GREEN: RGBColor = RGBColor(44, 160, 44);
/// Frames and axis lines.
pub const FRAME: RGBColor = RGBColor(90, 90, 90);
/// Shaded bands behind rows.
pub const SHADE: RGBColor = RGBColor(245, 245, 245);
