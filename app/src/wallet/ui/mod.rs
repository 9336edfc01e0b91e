//! The wallet page, and the frame the three account pages of this area share.
pub mod draft;
pub mod frame;
pub mod page;
