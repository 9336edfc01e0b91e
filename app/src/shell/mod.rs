//! The shell (spec 000 §2, §9; 001 §2): header, lateral and account menus, the mobile
//! menu page, footer, progress bar. The page switch is in `app.rs`.
mod content;
mod footer;
pub mod header;
pub mod menu;
pub mod model;
pub mod navigation;
mod progress_bar;
pub mod rules;
#[cfg(feature = "ssr")]
pub mod service;
mod theme;

pub use footer::Footer;
pub use header::Header;
pub use progress_bar::ProgressBar;
pub use theme::theme_color;
