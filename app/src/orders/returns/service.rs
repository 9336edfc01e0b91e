//! Return requests: checks, then one transaction that stores the return and moves the
//! order to `return_requested` through the orders' one status write.
use crate::orders::marketplace;
use crate::orders::returns::error::AfterSaleError;
use crate::orders::returns::model::{
    ReturnCreated, ReturnReasonView, ReturnRequest, ReturnSubReasonView,
};
use crate::orders::returns::rules::{self, Refusal};
use crate::orders::returns::store;
use crate::orders::rules::{plan_move, Facts, Fulfilment, OrderStatus};
use crate::orders::store::status;
use crate::platform::db::Db;
use crate::site::i18n::t;

/// The return reasons in `lang`: `labelKey` translated into `label`, the id as `value`.
pub fn reasons(lang: &str) -> Vec<ReturnReasonView> {
    rules::REASONS
        .iter()
        .map(|r| ReturnReasonView {
            label_key: r.label_key.into(),
            label: t(lang, r.label_key),
            value: r.id.into(),
            sub_reasons: (!r.sub_reasons.is_empty()).then(|| {
                r.sub_reasons
                    .iter()
                    .map(|(id, key)| ReturnSubReasonView {
                        label_key: (*key).into(),
                        label: t(lang, key),
                        value: (*id).into(),
                    })
                    .collect()
            }),
        })
        .collect()
}

/// The marketplace contact reasons in `lang`.
pub fn contact_reasons(lang: &str) -> Vec<ReturnReasonView> {
    marketplace::CONTACT_REASONS
        .iter()
        .map(|(id, key)| ReturnReasonView {
            label_key: (*key).into(),
            label: t(lang, key),
            value: (*id).into(),
            sub_reasons: None,
        })
        .collect()
}

/// Through which door a return came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    Shop,
    Marketplace,
}

/// Asks for the return of lines of a delivered order of the member.
pub async fn request(
    db: &Db,
    member_id: i64,
    order_id: i64,
    req: &ReturnRequest,
    channel: Channel,
    now: i64,
) -> Result<ReturnCreated, AfterSaleError> {
    let comment = req
        .comment
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty());
    let sub_reason = req.sub_reason_id.as_deref().filter(|s| !s.is_empty());
    let mut tx = db.begin().await?;
    let (order_status, cart_type) = store::own_order(&mut tx, member_id, order_id)
        .await?
        .ok_or(AfterSaleError::NotFound)?;
    if channel == Channel::Marketplace && !marketplace::is_marketplace(&cart_type) {
        return Err(AfterSaleError::NotMarketplace);
    }
    rules::check_reason(&req.reason_id, sub_reason, comment)?;
    let delivered_at = store::delivered_at(&mut tx, order_id).await?;
    // The same rule as every status move: the life cycle's move into return_requested.
    match rules::may_request(&order_status, delivered_at.is_some()) {
        Ok(()) => {}
        Err(rules::Gate::NotDelivered) => return Err(AfterSaleError::OrderNotDelivered),
        Err(rules::Gate::InProgress) => {
            let first = req
                .products
                .first()
                .map(|p| p.id_text())
                .unwrap_or_default();
            return Err(Refusal::AlreadyRequested(first).into());
        }
    }
    plan_move(
        &order_status,
        Some(OrderStatus::ReturnRequested.wire()),
        Facts::of(Fulfilment::of(&cart_type, &[])),
    )
    .map_err(|_| AfterSaleError::OrderNotDelivered)?;
    let window = crate::orders::settings::OrdersSettings::current().return_window_days;
    if !crate::orders::returns::settlement::within_window(delivered_at, now, window) {
        return Err(AfterSaleError::WindowClosed);
    }
    let lines = store::line_states(&mut tx, order_id).await?;
    let requested: Vec<(String, i64)> = req
        .products
        .iter()
        .map(|p| (p.id_text(), p.quantity))
        .collect();
    let accepted = rules::check_selection(&lines, &requested)?;
    let channel_name = match channel {
        Channel::Shop => "shop",
        Channel::Marketplace => "marketplace",
    };
    let return_id = match store::insert_return(
        &mut tx,
        order_id,
        channel_name,
        &req.reason_id,
        sub_reason,
        comment,
        &accepted,
        now,
    )
    .await
    {
        Ok(id) => id,
        // A concurrent request opened a return of the same line first.
        Err(e)
            if e.as_database_error()
                .is_some_and(|d| d.is_unique_violation()) =>
        {
            let first = requested
                .first()
                .map(|(id, _)| id.clone())
                .unwrap_or_default();
            return Err(Refusal::AlreadyRequested(first).into());
        }
        Err(e) => return Err(e.into()),
    };
    let note = format!("return {return_id}");
    status::record(&mut tx, order_id, "return_requested", Some(&note), now).await?;
    tx.commit().await?;
    Ok(ReturnCreated {
        return_id,
        order_id,
        status: "return_requested".into(),
    })
}
