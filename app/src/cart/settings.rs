//! The cart's tunables, with their defaults (defined once, here; the server fills them
//! from the environment).
/// Tunables (server configuration).
#[derive(Clone, Debug)]
pub struct CartSettings {
    /// How long an added item stays held (ROSACE_CART_HOLD_SECS, default 900).
    pub hold_secs: i64,
    /// Units of one product a member may hold (ROSACE_CART_MAX_PER_MEMBER, default 5).
    pub max_per_member: i64,
    /// Payments running at once before the waiting line (ROSACE_CHECKOUT_CAPACITY).
    pub checkout_capacity: usize,
    /// How long a payment keeps its slot at most, so that the slot of an instance killed
    /// mid-payment comes back (ROSACE_CHECKOUT_LEASE_SECS, default 60).
    pub checkout_lease_secs: i64,
    /// How long after payment an order can be reopened.
    pub reopen_window_secs: i64,
}

impl Default for CartSettings {
    fn default() -> Self {
        CartSettings {
            hold_secs: 900,
            max_per_member: 5,
            checkout_capacity: 64,
            checkout_lease_secs: 60,
            reopen_window_secs: 1800,
        }
    }
}
