//! Cart operations: each is one short write transaction. On SQLite, writers queue for the
//! database's one write connection (`Db::writes`) and open `BEGIN IMMEDIATE` transactions
//! (no lock upgrades, no busy sleeps; reads use the shared pool beside it, thanks to WAL); on
//! PostgreSQL row locks order them, and the hot stock row is updated last, just before
//! the commit, so its lock is held as briefly as possible. Adds, the hot path of a sale
//! opening, go through a batching writer on both engines (`crate::cart::writer`): the adds
//! waiting at one moment share one transaction. Stock moves are conditional updates:
//! `held` grows only while `stock - held - sold` covers the quantity, so a sale is never
//! oversold, whatever the number of instances.
mod cart_service;
pub mod checkout;
mod common;
mod operations;

pub use crate::cart::error::{CartFailure, CartResult};
pub use crate::cart::member::{AddLine, AddOptions, Member};
pub use crate::cart::settings::CartSettings;
pub use cart_service::*;
pub use common::*;
