//! Brands place `/brandsplace`: the brands of the site's live sales from A to
//! Z with a letter index and a search, each to its brand page `/b/{id}`; a signed-in
//! member follows or stops following a brand from here (the brand alerts of the
//! communications area: one store, one REST call, one state).
pub mod model;
pub mod rules;
#[cfg(feature = "ssr")]
pub mod store;
pub mod ui;
