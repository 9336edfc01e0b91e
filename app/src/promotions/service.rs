//! The vouchers page's operations: the lists, the selection toggle (which the cart then
//! applies: the basket's vouchers are the selection) and the print link.
use crate::cart::service::{CartService, Member};
use crate::cart::vouchers::PrintScope;
use crate::promotions::error::PromotionsError as E;
use crate::promotions::model::{PrintUrl, VouchersAndPromotions};
use crate::promotions::rules::Selection;
use crate::promotions::store;

pub async fn list(cart: &CartService, m: Member, now: i64) -> Result<VouchersAndPromotions, E> {
    Ok(store::list(&cart.db, m.id, m.site_id, now).await?)
}

/// Toggles one entry: selected, it leaves the basket; otherwise the cart applies it (with
/// every check of a typed code). An entry that is not the member's is not found.
pub async fn toggle(
    cart: &CartService,
    m: Member,
    choice: Selection,
    now: i64,
) -> Result<VouchersAndPromotions, E> {
    let owned = match choice.participation_id {
        Some(p) => {
            store::participation_voucher(&cart.db, m.id, p).await? == Some(choice.voucher_id)
        }
        None => store::is_site_promotion(&cart.db, choice.voucher_id, m.site_id).await?,
    };
    if !owned {
        return Err(E::NotFound);
    }
    let current = store::list(&cart.db, m.id, m.site_id, now).await?;
    if current.selection.contains(&choice) {
        cart.remove_voucher(m, choice.voucher_id).await?;
    } else {
        cart.apply_voucher_id(m, choice.voucher_id, now).await?;
    }
    list(cart, m, now).await
}

pub async fn print(cart: &CartService, m: Member, now: i64) -> Result<PrintUrl, E> {
    Ok(PrintUrl {
        print_url: cart.print_link(m, PrintScope::Account, now).await?,
    })
}
