//! The browser theme colour of each brand.
use crate::site::Brand;

pub fn theme_color(brand: Brand) -> &'static str {
    match brand {
        Brand::Rosace => "#d6336c",
        Brand::Violeta => "#6f2dbd",
    }
}
