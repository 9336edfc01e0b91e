//! The browser theme colour of each brand.
use crate::site::Brand;

pub fn theme_color(brand: Brand) -> &'static str {
    crate::site::theme::Theme::Brand(brand).color()
}
