//! The shell (spec 000 §2, §9): header, footer, progress bar. The page switch is in `app.rs`.
mod footer;
mod header;
mod progress_bar;
mod theme;

pub use footer::Footer;
pub use header::Header;
pub use progress_bar::ProgressBar;
pub use theme::theme_color;
