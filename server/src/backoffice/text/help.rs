//! The words of the help-articles editor, `(key, English, French)`.
pub(super) const TABLE: &[(&str, &str, &str)] = &[("nav.help", "Help articles", "Articles d'aide")];
