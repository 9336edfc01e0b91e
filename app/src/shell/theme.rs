//! The browser theme colour of each site's palette.
use crate::site::Palette;

pub fn theme_color(palette: Palette) -> &'static str {
    crate::site::theme::Theme::Site(palette).color()
}
