//! The travel products a member opened, newest first.
