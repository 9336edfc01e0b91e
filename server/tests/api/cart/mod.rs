//! Cart, held stock, checkout, orders, vouchers, loyalty, suspend and waiting line over
//! HTTP, on SQLite and PostgreSQL.
use serde_json::{json, Value};

mod basics;
mod checkout;
mod header;
mod holds;
mod vouchers;
mod waiting_line;

const V1: &str = "/api/cartproxy/v1";
const PIPE: &str = "/api/cartproxy/orderpiper/cart/v3";

fn add(id: impl Into<Value>, q: i64) -> Value {
    json!({ "product_id": id.into(), "quantity": q, "cart_type": "fs" })
}
