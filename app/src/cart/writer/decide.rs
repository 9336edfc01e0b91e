//! The batch's decisions, with no I/O: given what the database holds for the batch's
//! members and options (read inside the batch's transaction), each add is decided in
//! arrival order exactly as if it ran alone after the ones before it, with the same checks
//! in the same order as an add always had (frozen, cart type, per-member limit, stock);
//! then the writes of the accepted adds are summed up per row.
use std::collections::HashMap;

use serde::Serialize;

use super::AddJob;
use crate::cart::rules::CartError;

/// A member's cart row as read (absent: no row yet).
#[derive(Clone, Debug, Default)]
pub struct CartRowState {
    pub status: String,
    pub cart_type: Option<String>,
}

/// One of a member's cart lines as read (live or not).
#[derive(Clone, Debug)]
pub struct LineState {
    pub option_id: i64,
    pub product_id: i64,
    pub quantity: i64,
    pub expires_at: i64,
}

/// What the batch read.
#[derive(Clone, Debug, Default)]
pub struct Snapshot {
    pub carts: HashMap<i64, CartRowState>,
    pub lines: HashMap<i64, Vec<LineState>>,
    /// Units of an option left for others (`stock - held - sold`); an absent option has none.
    pub left: HashMap<i64, i64>,
}

/// A cart line to insert, or to add to (the insert's `ON CONFLICT` keeps the first origin,
/// bundle and creation time, adds the quantity and takes the last expiry).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ItemWrite {
    pub member_id: i64,
    pub option_id: i64,
    pub product_id: i64,
    pub sale_id: i64,
    pub quantity: i64,
    pub origin: Option<String>,
    pub bundle_id: Option<String>,
    pub created_at: i64,
    pub expires_at: i64,
}

/// A cart row to create or to give a type (its version is bumped).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CartWrite {
    pub member_id: i64,
    pub site_id: i64,
    pub cart_type: String,
    pub updated_at: i64,
}

/// The batch's outcome: one result per add, and the writes of the accepted ones.
#[derive(Debug, Default)]
pub struct Plan {
    pub results: Vec<Result<(), CartError>>,
    pub items: Vec<ItemWrite>,
    pub carts: Vec<CartWrite>,
    /// Units to hold per option, by option id.
    pub held: Vec<(i64, i64)>,
    /// Members with at least one accepted add.
    pub accepted_members: Vec<i64>,
}

pub fn decide(jobs: &[&AddJob], mut snap: Snapshot, hold_secs: i64, max_per_member: i64) -> Plan {
    let mut plan = Plan::default();
    let mut item_at: HashMap<(i64, i64), usize> = HashMap::new();
    let mut cart_at: HashMap<i64, usize> = HashMap::new();
    let mut held: HashMap<i64, i64> = HashMap::new();
    for job in jobs {
        let r = check(job, &snap, max_per_member);
        let r = r.and_then(|()| take_stock(job, &mut snap.left));
        if r.is_ok() {
            let (m, now) = (job.m, job.now);
            for l in &job.lines {
                *held.entry(l.option_id).or_default() += l.quantity;
            }
            let lines = snap.lines.entry(m.id).or_default();
            for (l, info) in job.lines.iter().zip(&job.infos) {
                match lines.iter_mut().find(|s| s.option_id == l.option_id) {
                    Some(s) => {
                        s.quantity += l.quantity;
                        s.expires_at = now + hold_secs;
                    }
                    None => lines.push(LineState {
                        option_id: l.option_id,
                        product_id: info.product_id,
                        quantity: l.quantity,
                        expires_at: now + hold_secs,
                    }),
                }
                match item_at.get(&(m.id, l.option_id)) {
                    Some(&i) => {
                        plan.items[i].quantity += l.quantity;
                        plan.items[i].expires_at = now + hold_secs;
                    }
                    None => {
                        item_at.insert((m.id, l.option_id), plan.items.len());
                        plan.items.push(ItemWrite {
                            member_id: m.id,
                            option_id: l.option_id,
                            product_id: info.product_id,
                            sale_id: info.sale_id,
                            quantity: l.quantity,
                            origin: job.opts.origin.clone(),
                            bundle_id: job.opts.bundle_id.clone(),
                            created_at: now,
                            expires_at: now + hold_secs,
                        });
                    }
                }
            }
            let cart = snap.carts.get(&m.id);
            if cart.is_none_or(|c| c.cart_type.as_deref() != Some(job.cart_type.as_str())) {
                let write = CartWrite {
                    member_id: m.id,
                    site_id: m.site_id,
                    cart_type: job.cart_type.clone(),
                    updated_at: now,
                };
                match cart_at.get(&m.id) {
                    // Not reached (a later add of another type is refused while the first
                    // one's line is live), but one row per member is what the insert needs.
                    Some(&i) => plan.carts[i] = write,
                    None => {
                        cart_at.insert(m.id, plan.carts.len());
                        plan.carts.push(write);
                    }
                }
                let status = cart.map_or_else(|| "open".to_string(), |c| c.status.clone());
                snap.carts.insert(
                    m.id,
                    CartRowState {
                        status,
                        cart_type: Some(job.cart_type.clone()),
                    },
                );
            }
            if !plan.accepted_members.contains(&m.id) {
                plan.accepted_members.push(m.id);
            }
        }
        plan.results.push(r);
    }
    plan.held = held.into_iter().filter(|(_, n)| *n > 0).collect();
    plan.held.sort_unstable();
    plan
}

/// The member's checks of an add, in their order: frozen cart, cart type, per-member limit.
fn check(job: &AddJob, snap: &Snapshot, max_per_member: i64) -> Result<(), CartError> {
    let cart = snap.carts.get(&job.m.id);
    if cart.is_some_and(|c| c.status == "frozen") {
        return Err(CartError::Frozen);
    }
    let lines = snap.lines.get(&job.m.id).map(Vec::as_slice).unwrap_or(&[]);
    let live = |l: &&LineState| l.expires_at > job.now;
    let live_lines = lines.iter().filter(live).count();
    let current_type = cart.and_then(|c| c.cart_type.as_deref());
    if live_lines > 0 && crate::cart::rules::cart_types_conflict(current_type, &job.cart_type) {
        return Err(CartError::IncompatibleCartTypes);
    }
    for (product_id, adding) in &job.per_product {
        let held: i64 = lines
            .iter()
            .filter(live)
            .filter(|l| l.product_id == *product_id)
            .map(|l| l.quantity)
            .sum();
        if held + adding > max_per_member {
            return Err(CartError::MaxReached);
        }
    }
    Ok(())
}

/// Takes the add's units, line after line, all or none.
fn take_stock(job: &AddJob, left: &mut HashMap<i64, i64>) -> Result<(), CartError> {
    let mut taken: Vec<(i64, i64)> = Vec::with_capacity(job.lines.len());
    for l in &job.lines {
        let units = left.entry(l.option_id).or_insert(0);
        if *units < l.quantity {
            for (o, q) in taken {
                *left.entry(o).or_default() += q;
            }
            return Err(CartError::OutOfStock);
        }
        *units -= l.quantity;
        taken.push((l.option_id, l.quantity));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
