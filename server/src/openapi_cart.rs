//! OpenAPI description of the cart, checkout, voucher, loyalty, order and waiting-line
//! calls (spec 000 §7 "Cart"); merged into `openapi::document` (paths listed in `openapi::PATHS`).
use serde_json::{json, Value};

const CODES: &str = "Cart response codes (spec §8): 200 success, 201 created, 204 empty, 260 expired, 261 frozen (a cart being paid cannot change: cancel-order first), 262 the order cannot be reopened, 263 onboarding redirect (accept the terms of sale first), 400 client error (bad payload, unknown product, out_of_stock, invalid_card, payment_declined, voucher_*), 401 not signed in, 409 incompatible_cart_types (a cart holds one cart_type at a time: adding another type is refused until it is paid or emptied), 412 invalid cart (wrong or stale cartHash), 429 more than one (max_reached: per-member limit of units of a product), 500 unexpected. Failures carry {error_code, error_description}; error_description is a translation key (cart.errors.*).";

fn err(desc: &str) -> Value {
    json!({ "description": desc, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } })
}

fn body(props: Value, required: &[&str]) -> Value {
    json!({ "required": true, "content": { "application/json": { "schema": {
        "type": "object", "required": required, "properties": props } } } })
}

fn cart_ok(code: &str, desc: &str) -> Value {
    let mut r = json!({
        "204": { "description": "empty cart" },
        "400": err("bad payload, unknown product, out of stock"),
        "401": err("not signed in"),
        "261": err("frozen: the cart is being paid"),
        "409": err("incompatible_cart_types"),
        "429": err("max_reached: per-member limit"),
        "500": err("unexpected")
    });
    r[code] = json!({ "description": desc, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Cart" } } } });
    r
}

fn op(summary: &str, request: Option<Value>, responses: Value) -> Value {
    let mut o = json!({ "summary": summary, "responses": responses });
    if let Some(b) = request {
        o["requestBody"] = b;
    }
    o
}

pub fn paths() -> Value {
    let id = json!({ "oneOf": [{ "type": "string", "pattern": "^[0-9]+$" }, { "type": "integer" }],
        "description": "product option (SKU) id as listed by the item options call; a string (a number is accepted)" });
    let context = json!({ "type": "object", "properties": {
        "sale_id": { "type": ["string", "integer"] }, "origin": { "type": "string" },
        "bundle_id": { "type": ["string", "integer"], "description": "sent only when present" } } });
    let cart_type = json!({ "type": "string", "enum": ["fs", "marketplace", "leg", "new"], "default": "fs",
        "description": "a cart holds one cart_type at a time; another type answers 409 incompatible_cart_types" });
    let quantity = json!({ "type": "integer", "minimum": 1, "maximum": 99, "default": 1 });
    let loyalty = body(
        json!({ "productId": { "type": ["integer", "string"], "enum": [1, 2], "description": "loyalty programme: premium 1, pass 2" },
                "quantity": { "type": "integer", "const": 1, "description": "always 1 (any other value is ignored)" } }),
        &["productId"],
    );
    json!({
        "/api/cartproxy/v1": {
            "get": op(&format!("Fetch the cart (lines with remainingTime, vouchers, loyalty, totals, recovery). Releases the member's expired holds first; answers 260 once after an expiry (body: the cart plus error_code/error_description). {CODES}"), None,
                json!({ "200": { "description": "Cart", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Cart" } } } },
                        "204": { "description": "empty cart" }, "260": err("the basket expired; its lines are offered in recovery"), "401": err("not signed in") })),
            "delete": op("Empty the cart: lines (units back to the sale at once), vouchers, loyalty item", None,
                json!({ "204": { "description": "emptied" }, "261": err("frozen"), "401": err("not signed in") }))
        },
        "/api/cartproxy/v1/items": { "post": op("Add several products (multi-item form), all or nothing; each unit is held for the member (ROSACE_CART_HOLD_SECS)",
            Some(body(json!({ "products_quantity": { "type": "array", "minItems": 1, "maxItems": 50, "items": { "type": "object",
                "required": ["product_id", "quantity"], "properties": { "product_id": id, "quantity": quantity } } },
                "cart_type": cart_type, "context": context }), &["products_quantity"])),
            cart_ok("201", "added; the cart")) },
        "/api/cartproxy/v1/item": {
            "post": op("Add one product (single-item form), or reopen a paid order (order_to_reopen: its lines come back into the cart, the order becomes reopened and is refunded; 262 when it cannot be reopened)",
                Some(body(json!({ "product_id": id, "quantity": quantity, "cart_type": cart_type, "context": context,
                    "order_to_reopen": { "type": ["string", "integer"] } }), &[])),
                { let mut r = cart_ok("201", "added; the cart"); r["262"] = err("the order cannot be reopened"); r }),
            "delete": op("Remove a product; its units go back to the sale at once",
                Some(body(json!({ "product_id": id, "cart_type": cart_type }), &["product_id"])),
                cart_ok("200", "removed; the cart"))
        },
        "/api/cartproxy/v1/suspend": {
            "get": op("Suspended-order check", None, json!({ "200": { "description": "{hasSuspendedOrder}" }, "401": err("not signed in") })),
            "post": op("Suspend the basket: its lines are put aside (units back to the sale) and offered by POST .../recover", None,
                json!({ "200": { "description": "{hasSuspendedOrder: true}" }, "412": err("nothing to suspend"), "261": err("frozen"), "401": err("not signed in") }))
        },
        "/api/cartproxy/v1/vouchers": { "post": op("Apply a voucher by code (demo: ROSE10 10 %, LIVRAISON free shipping, LIMIT1 one use in total, BIENVENUE 10 €). Spent only at payment, atomically within its limits.",
            Some(body(json!({ "code": { "type": "string" } }), &["code"])),
            { let mut r = cart_ok("201", "applied; the cart"); r["400"] = err("voucher_unknown, voucher_exhausted, voucher_member_limit"); r }) },
        "/api/cartproxy/v1/vouchers/print": { "post": op("Print the basket's vouchers: a link to a printable page /vouchers/print/{token} (1 hour)",
            Some(json!({ "content": { "application/json": { "schema": { "type": "object" } } } })),
            json!({ "200": { "description": "{printUrl}" }, "401": err("not signed in") })) },
        "/api/cartproxy/v1/vouchers/{voucherId}": { "delete": {
            "summary": "Remove a voucher from the basket",
            "parameters": [{ "name": "voucherId", "in": "path", "required": true, "schema": { "type": "integer" } }],
            "responses": cart_ok("200", "removed; the cart") } },
        "/api/cartproxy/orderpiper/cart/v3": { "get": op("Cart hash: freezes the cart for payment (the same hash while frozen); 263 when the member must accept the terms of sale first", None,
            json!({ "200": { "description": "{cartHash, cart}" }, "204": { "description": "empty cart" }, "260": err("expired"), "263": err("onboarding redirect"), "401": err("not signed in") })) },
        "/api/cartproxy/orderpiper/cart/v3/pay": { "post": op("Pay the frozen cart. Idempotency key: cartHash (paying twice gives one order). Sandbox provider: card 4242 4242 4242 4242 accepted, 4000 0000 0000 0002 declined (nothing charged, the cart opens again and keeps its holds until they expire), anything else 400 invalid_card. Beyond ROSACE_CHECKOUT_CAPACITY payments at once: 202 with a waiting-line ticket; poll GET /api/catalog/v1/waiting-line/{ticket} and pay again with waitingLineTicket when ready.",
            Some(body(json!({ "cartHash": { "type": "string" }, "generateDeeplinkReturnUrl": { "type": "boolean", "const": false },
                "card": { "type": "string", "description": "sandbox only" }, "waitingLineTicket": { "type": "string" } }), &["cartHash"])),
            json!({ "200": { "description": "{orderId, status: validated, order}" },
                    "202": { "description": "{waitingLine: {ticket, position, retryAfter, ready}}; Retry-After header" },
                    "260": err("a hold expired"), "400": err("invalid_card, payment_declined, voucher_exhausted"),
                    "401": err("not signed in"), "412": err("wrong or stale cartHash") })) },
        "/api/cartproxy/orderpiper/cart/v3/cancel-order": { "post": op("Defrost: cancel the order being paid; then refetch the cart", None, cart_ok("200", "the cart")) },
        "/api/cartproxy/orderpiper/cart/v3/recover": { "post": op("Recover released or suspended lines except the dismissed ones (held again as far as stock allows); then refetch the cart",
            Some(body(json!({ "dismissedProducts": { "type": "array", "items": id } }), &[])),
            json!({ "200": { "description": "the cart plus unavailableProducts" }, "261": err("frozen"), "401": err("not signed in") })) },
        "/api/cartproxy/orderpiper/cart/v3/cancel-recovery": { "post": op("Drop the recovery offer", None, cart_ok("200", "the cart")) },
        "/api/cartproxy/orderpiper/cart/v3/item": { "delete": op("Remove the loyalty item", Some(loyalty.clone()), cart_ok("200", "the cart")) },
        "/api/cartproxy/v3/loyalty-item": { "post": op("Add the loyalty item (premium 1, pass 2); quantity is always 1", Some(loyalty), cart_ok("201", "the cart")) },
        "/api/catalog/v1/waiting-line/{ticket}": { "get": {
            "summary": "Position of a checkout waiting-line ticket (FIFO); position 0 and ready true when it is the member's turn",
            "parameters": [{ "name": "ticket", "in": "path", "required": true, "schema": { "type": "string" } }],
            "responses": { "200": { "description": "{ticket, position, retryAfter, ready}" }, "410": err("unknown or lapsed ticket") } } },
        "/api/orders/v1/orders": { "get": op("The member's orders, newest first", None,
            json!({ "200": { "description": "{orders: [{id, status, total, items, createdAt, ...}]}" }, "401": err("not signed in") })) },
        "/api/orders/v1/orders/{id}": { "get": {
            "summary": "One of the member's orders",
            "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "integer" } }],
            "responses": { "200": { "description": "{id, status, cartType, subtotal, discount, shipping, loyalty, total, currency, createdAt, items}" },
                "401": err("not signed in"), "404": err("no such order of the member") } } }
    })
}

/// The cart schema for `components.schemas`.
pub fn cart_schema() -> Value {
    json!({ "type": "object", "properties": {
        "cartType": { "type": ["string", "null"] }, "status": { "type": "string", "enum": ["open", "frozen"] },
        "cartHash": { "type": ["string", "null"] },
        "items": { "type": "array", "items": { "type": "object", "properties": {
            "productId": { "type": "string" }, "itemId": { "type": "integer" }, "saleId": { "type": "integer" },
            "name": { "type": "string" }, "optionLabel": { "type": "string" }, "quantity": { "type": "integer" },
            "unitPrice": { "type": "integer" }, "total": { "type": "integer" }, "origin": { "type": "string" },
            "bundleId": { "type": "string" }, "remainingTime": { "type": "integer" } } } },
        "loyalty": { "type": ["object", "null"] },
        "vouchers": { "type": "array", "items": { "type": "object", "properties": {
            "voucherId": { "type": "integer" }, "code": { "type": "string" }, "kind": { "type": "string" },
            "discountType": { "type": "string", "enum": ["FIXED", "PERCENT"] }, "scope": { "type": "string", "enum": ["PRODUCT", "SHIPPING"] },
            "value": { "type": "integer" }, "amount": { "type": "integer" } } } },
        "totals": { "type": "object", "properties": { "subtotal": { "type": "integer" }, "discount": { "type": "integer" },
            "shipping": { "type": "integer" }, "shippingDiscount": { "type": "integer" }, "loyalty": { "type": "integer" }, "total": { "type": "integer" } } },
        "currency": { "type": "string" },
        "remainingTime": { "type": "integer", "description": "seconds until the first hold ends" },
        "hasNotifyBasketExpireSoon": { "type": "boolean", "description": "2 minutes or less left" },
        "hasNotifyBasketExpired": { "type": "boolean" }, "hasSuspendedOrder": { "type": "boolean" },
        "recovery": { "type": "array", "items": { "type": "object" } } } })
}
