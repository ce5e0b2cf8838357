//! What every chart shares: the embedded font, a PNG drawn in memory and written atomically, an SVG drawn into a
//! string, and drawing errors as I/O errors naming the file.
//!
//! Text is drawn with DejaVu Sans, embedded in the binary (`assets/DejaVuSans.ttf`, Bitstream
//! Vera licence, see `assets/DejaVuSans-LICENSE.txt`), so no system font library is needed.

use std::path::Path;
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::error::{Error, Result};
use crate::files::write_atomic;

static FONT: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");
const FAMILY: &str = "sans-serif";

/// Draws a `size` PNG with `draw` (after [`register_font`]) into memory, encodes it (as the
/// bitmap backend would save it to a file) and writes it to `path` with
/// [`crate::files::write_atomic`], so that a link at `path` or beside it is never followed.
pub(crate) fn write_png<F>(path: &Path, size: (u32, u32), draw: F) -> Result<()>
where
    F: for<'a> FnOnce(&DrawingArea<BitMapBackend<'a>, Shift>) -> DrawResult<BitMapBackend<'a>>,
{
    register_font()?;
    let mut pixels = vec![0u8; size.0 as usize * size.1 as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, size).into_drawing_area();
        draw(&root)
            .and_then(|()| root.present())
            .map_err(|e| draw_error(path, e))?;
    }
    let mut png = std::io::Cursor::new(Vec::new());
    image::write_buffer_with_format(
        &mut png,
        &pixels,
        size.0,
        size.1,
        image::ColorType::Rgb8,
        image::ImageOutputFormat::Png,
    )
    .map_err(|e| Error::io(path, std::io::Error::other(e.to_string())))?;
    write_atomic(path, png.get_ref())
}

/// Draws a `size` SVG with `draw` (after [`register_font`]) and returns the document; a
/// drawing error names `path`, the file it is meant for.
pub(crate) fn svg_string<F>(path: &Path, size: (u32, u32), draw: F) -> Result<String>
where
    F: for<'a> FnOnce(&DrawingArea<SVGBackend<'a>, Shift>) -> DrawResult<SVGBackend<'a>>,
{
    register_font()?;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&root)
            .and_then(|()| root.present())
            .map_err(|e| draw_error(path, e))?;
    }
    Ok(svg)
}

/// A drawing error as an I/O error naming `path`.
pub(crate) fn draw_error<E: std::error::Error + Send + Sync + 'static>(path: &Path, e: E) -> Error {
    Error::io(path, std::io::Error::other(e.to_string()))
}

/// Registers the embedded font as `sans-serif` (once), the family plotters' default text
/// styles use; [`write_png`] and [`svg_string`] call it.
pub(crate) fn register_font() -> Result<()> {
    static DONE: OnceLock<bool> = OnceLock::new();
    let ok = *DONE
        .get_or_init(|| plotters::style::register_font(FAMILY, FontStyle::Normal, FONT).is_ok());
    if ok {
        Ok(())
    } else {
        Err(Error::config("heatmap", "the embedded font failed to load"))
    }
}

/// What drawing on a backend `DB` returns.
pub(crate) type DrawResult<DB> =
    std::result::Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Black text of the embedded font at `size` pixels.
pub(crate) fn font(size: f64) -> TextStyle<'static> {
    TextStyle::from((FAMILY, size).into_font()).color(&BLACK)
}
