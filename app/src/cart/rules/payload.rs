//! The add-to-cart payload shapes of spec §5.
use serde_json::{json, Value};

use super::*;
use crate::model::cart::CartContext;

// ------------------------------------------------------------------ payload (§5)

/// A product id on the wire: a positive integer, as a number or a string of digits.
pub fn parse_id(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64(),
        Value::String(s)
            if !s.is_empty() && s.len() <= 18 && s.bytes().all(|b| b.is_ascii_digit()) =>
        {
            s.parse().ok()
        }
        _ => None,
    }
    .filter(|id| *id > 0)
}

/// A quantity on the wire: an integer from 1 to [`MAX_QUANTITY_PER_ADD`].
pub fn parse_quantity(v: Option<&Value>) -> Option<i64> {
    match v {
        None => Some(1),
        Some(Value::Number(n)) => n.as_i64(),
        _ => None,
    }
    .filter(|q| (1..=MAX_QUANTITY_PER_ADD).contains(q))
}

/// What the member asks to add.
#[derive(Clone, Debug, PartialEq)]
pub enum CartInput {
    /// One product (the single-item form).
    Single { product_id: i64, quantity: i64 },
    /// A list of products (the multi-item form), even of one element.
    List(Vec<(i64, i64)>),
}

/// Context of an add as the page knows it; `bundle_id` is sent only when present.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AddContext {
    pub sale_id: Option<i64>,
    pub origin: Option<String>,
    pub bundle_id: Option<String>,
}

/// The call to make for an add: path under `/api/cartproxy/v1` and JSON body (spec §5):
/// a list uses the multi-item form (`/items`, `products_quantity`), a single input the
/// single-item form (`/item`); `bundle_id` only when present; the product id becomes a
/// string when reopening an order.
pub fn cart_payload(
    input: &CartInput,
    cart_type: Option<&str>,
    context: Option<&AddContext>,
    order_to_reopen: Option<i64>,
) -> (&'static str, Value) {
    let cart_type = cart_type.unwrap_or(DEFAULT_CART_TYPE);
    let ctx = context.map(|c| CartContext {
        sale_id: c.sale_id.map(Value::from),
        origin: c.origin.clone(),
        bundle_id: c.bundle_id.clone().map(Value::from),
    });
    match input {
        CartInput::List(list) => {
            let products: Vec<Value> = list
                .iter()
                .map(|(id, q)| json!({ "product_id": id, "quantity": q }))
                .collect();
            let mut body = json!({ "products_quantity": products, "cart_type": cart_type });
            if let Some(c) = ctx {
                body["context"] = serde_json::to_value(c).unwrap_or(Value::Null);
            }
            ("/items", body)
        }
        CartInput::Single {
            product_id,
            quantity,
        } => {
            let id = match order_to_reopen {
                Some(_) => Value::from(product_id.to_string()),
                None => Value::from(*product_id),
            };
            let mut body =
                json!({ "product_id": id, "quantity": quantity, "cart_type": cart_type });
            if let Some(c) = ctx {
                body["context"] = serde_json::to_value(c).unwrap_or(Value::Null);
            }
            if let Some(order) = order_to_reopen {
                body["order_to_reopen"] = Value::from(order.to_string());
            }
            ("/item", body)
        }
    }
}
