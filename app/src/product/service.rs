//! The bundle's one write: its products into the member's cart in one add.
use crate::cart::error::CartFailure;
use crate::cart::member::{AddLine, AddOptions, Member};
use crate::cart::service::CartService;
use crate::model::error::WireError;
use crate::product::bundle::{bundle_price, BundleRefusal};

/// Why a bundle did not go into the cart.
#[derive(Debug)]
pub enum BundleAddError {
    /// No such bundle on show in a live sale of the site.
    NotFound,
    Refused(BundleRefusal),
    Cart(CartFailure),
}

impl BundleAddError {
    pub fn message_key(&self) -> &'static str {
        match self {
            BundleAddError::NotFound => "errors.not_found",
            BundleAddError::Refused(r) => r.message_key(),
            BundleAddError::Cart(e) => e.message_key(),
        }
    }

    /// The database's error, for the log.
    pub fn cause(&self) -> Option<String> {
        match self {
            BundleAddError::Cart(e) => e.cause(),
            _ => None,
        }
    }
}

/// Adds one of each product of the bundle in the options `chosen` (each product's first
/// option in stock where none is chosen), every line carrying the bundle's id: all of them
/// or none (one add of the batching writer).
pub async fn add_bundle(
    cart: &CartService,
    site_id: u16,
    m: Member,
    sale_id: i64,
    bundle_id: i64,
    chosen: &[i64],
    now: i64,
) -> Result<(), BundleAddError> {
    let bundle = crate::product::store::bundle(
        &cart.db,
        site_id,
        sale_id,
        bundle_id,
        cart.viewer(Some(m.id)),
        now,
    )
    .await
    .map_err(|e| BundleAddError::Cart(e.into()))?
    .ok_or(BundleAddError::NotFound)?;
    let priced = bundle_price(&bundle, chosen).map_err(BundleAddError::Refused)?;
    let lines: Vec<AddLine> = priced
        .lines
        .iter()
        .map(|l| AddLine {
            option_id: l.option_id,
            quantity: 1,
        })
        .collect();
    let cart_type = crate::cart::rules::cart_type_for_seller(&bundle.items[0].seller_kind);
    let opts = AddOptions {
        origin: Some("bundle".into()),
        bundle_id: Some(bundle_id.to_string()),
    };
    cart.add(m, &lines, cart_type, &opts, now)
        .await
        .map(|_| ())
        .map_err(BundleAddError::Cart)
}
