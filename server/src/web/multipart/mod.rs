//! Multipart bodies the REST calls and the forms without scripts both read: files up to
//! their limit (`upload`), a help-centre message (`help`), a rose-deal form (`rosedeals`).
pub mod help;
pub mod rosedeals;
pub mod upload;

pub(crate) use rosedeals::{read_parts, Parts, RMI_BODY_MAX};
