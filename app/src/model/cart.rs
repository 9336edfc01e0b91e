//! Cart, checkout, order and voucher wire shapes (spec 000 §3 "Cart", §7 "Cart").
//! Request bodies keep the spec's field names (`product_id`, `products_quantity`,
//! `cartHash`, `dismissedProducts`, `productId`); responses are camelCase.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Base path of the cart REST API (spec §7), and of its order pipe.
pub const CART: &str = "/api/cartproxy/v1";
pub const PIPE: &str = "/api/cartproxy/orderpiper/cart/v3";

/// `context` of an add: sale id, origin and, only when present, the bundle id.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct CartContext {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sale_id: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bundle_id: Option<Value>,
}

/// POST /api/cartproxy/v1/item. `product_id` is a string (a number is accepted too).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct ItemRequest {
    #[serde(default)]
    pub product_id: Option<Value>,
    #[serde(default)]
    pub quantity: Option<Value>,
    #[serde(default)]
    pub cart_type: Option<String>,
    #[serde(default)]
    pub context: Option<CartContext>,
    #[serde(default)]
    pub order_to_reopen: Option<Value>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct ProductQuantity {
    pub product_id: Value,
    pub quantity: Value,
}

/// POST /api/cartproxy/v1/items.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct ItemsRequest {
    #[serde(default)]
    pub products_quantity: Vec<ProductQuantity>,
    #[serde(default)]
    pub cart_type: Option<String>,
    #[serde(default)]
    pub context: Option<CartContext>,
}

/// DELETE /api/cartproxy/v1/item.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct RemoveItemRequest {
    #[serde(default)]
    pub product_id: Option<Value>,
    #[serde(default)]
    pub cart_type: Option<String>,
}

/// POST /api/cartproxy/orderpiper/cart/v3/pay. `card` is read by the sandbox provider only.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PayRequest {
    #[serde(default)]
    pub cart_hash: String,
    #[serde(default)]
    pub generate_deeplink_return_url: bool,
    #[serde(default)]
    pub card: Option<String>,
    /// The member ticked "save this card": once paid, the provider's token and the last
    /// four digits go to their wallet.
    #[serde(default)]
    pub save_card: bool,
    /// A waiting-line ticket that became ready.
    #[serde(default)]
    pub waiting_line_ticket: Option<String>,
    /// The member's address to deliver to; left out: their favourite, else their first.
    #[serde(default)]
    pub address_id: Option<i64>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RecoverRequest {
    #[serde(default)]
    pub dismissed_products: Vec<Value>,
}

/// POST /api/cartproxy/v3/loyalty-item and DELETE .../orderpiper/cart/v3/item.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct LoyaltyRequest {
    #[serde(default)]
    pub product_id: Option<Value>,
    #[serde(default)]
    pub quantity: Option<Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct VoucherRequest {
    #[serde(default)]
    pub code: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CartLine {
    /// The option (SKU) id, as a string like the requests.
    pub product_id: String,
    pub item_id: i64,
    pub sale_id: i64,
    pub name: String,
    /// The picture of the chosen option (its own, else its product's), as the product page
    /// shows it.
    #[serde(default)]
    pub image: String,
    pub option_label: String,
    pub quantity: i64,
    pub unit_price: i64,
    pub total: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bundle_id: Option<String>,
    /// Seconds this line stays held.
    pub remaining_time: i64,
    /// A voucher delivered in the shop (a rose deal): no parcel, so no shipping, no
    /// delivery address and no size.
    #[serde(default)]
    pub is_digital: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CartVoucher {
    pub voucher_id: i64,
    pub code: String,
    /// voucher or promotion.
    pub kind: String,
    /// FIXED or PERCENT.
    pub discount_type: String,
    /// PRODUCT or SHIPPING.
    pub scope: String,
    /// Cents for FIXED, percent for PERCENT.
    pub value: i64,
    /// What it takes off this cart, in cents.
    pub amount: i64,
    /// Applied by an automatic campaign of the site: nothing to type, nothing to remove.
    #[serde(default)]
    pub automatic: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct LoyaltyItem {
    /// 1 premium, 2 pass.
    pub product_id: i64,
    pub quantity: i64,
    pub price: i64,
    pub label_key: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Totals {
    pub subtotal: i64,
    pub discount: i64,
    pub shipping: i64,
    pub shipping_discount: i64,
    pub loyalty: i64,
    pub total: i64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RecoveryLine {
    pub product_id: String,
    pub name: String,
    pub option_label: String,
    pub quantity: i64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Cart {
    pub cart_type: Option<String>,
    /// open or frozen.
    pub status: String,
    pub cart_hash: Option<String>,
    pub items: Vec<CartLine>,
    pub loyalty: Option<LoyaltyItem>,
    pub vouchers: Vec<CartVoucher>,
    pub totals: Totals,
    pub currency: String,
    /// Seconds until the first line's hold ends (0 when empty).
    pub remaining_time: i64,
    pub has_notify_basket_expire_soon: bool,
    pub has_notify_basket_expired: bool,
    pub has_suspended_order: bool,
    /// Lines released by expiry that POST /recover can bring back.
    pub recovery: Vec<RecoveryLine>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OrderItem {
    pub product_id: String,
    pub item_id: i64,
    pub sale_id: i64,
    pub name: String,
    pub option_label: String,
    pub quantity: i64,
    pub unit_price: i64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Order {
    pub id: i64,
    /// validated or reopened.
    pub status: String,
    pub cart_type: String,
    pub subtotal: i64,
    pub discount: i64,
    pub shipping: i64,
    pub loyalty: i64,
    pub total: i64,
    pub currency: String,
    pub created_at: i64,
    pub items: Vec<OrderItem>,
    /// The copy of the address the order is delivered to (none for travel bookings and
    /// orders paid before the address book).
    #[serde(default)]
    pub delivery_address: Option<crate::model::address::DeliveryAddress>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct WaitingLine {
    pub ticket: String,
    /// 0 when it is the member's turn.
    pub position: i64,
    /// Seconds before polling again.
    pub retry_after: i64,
    pub ready: bool,
}

/// 260: the cart as it is now, with why (its holds expired).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct ExpiredCart {
    #[serde(flatten)]
    pub cart: Cart,
    pub error_code: String,
    pub error_description: String,
}

/// Whether the member has a suspended basket to recover.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SuspendState {
    pub has_suspended_order: bool,
}

/// Where the printable vouchers are.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PrintUrl {
    pub print_url: String,
}

/// The frozen cart and its hash, the idempotency key of its payment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct FrozenCart {
    pub cart_hash: String,
    pub cart: Cart,
}

/// 202: the member waits in line before paying.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Queued {
    pub waiting_line: WaitingLine,
}

/// A paid (or declined) order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Payment {
    pub order_id: i64,
    pub status: String,
    pub order: Order,
}

/// The recovered basket and the products that could not come back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RecoveredCart {
    #[serde(flatten)]
    pub cart: Cart,
    pub unavailable_products: Vec<String>,
}

/// The member's orders, newest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Orders {
    pub orders: Vec<Order>,
}
