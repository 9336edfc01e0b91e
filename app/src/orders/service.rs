//! The orders' operations: the member's list and detail (reads, each checked against the
//! member), and the life-cycle moves of the fulfilment simulator, each one transaction
//! through `store::status::record`.
use crate::orders::error::OrdersError;
use crate::orders::model::{OrderDetail, OrderEvent, OrderPayment, OrderSummary, OrdersPage};
use crate::orders::rules::{
    self, detail_url, help_url, plan_move, sort_timeline, stay_over, Facts, Fulfilment,
    OrderStatus, Paging,
};
use crate::orders::store::{fulfilment, read, status};
use crate::platform::db::{Backend, Db};

/// One page of the member's orders, newest first, with the total.
pub async fn list(db: &Db, member_id: i64, paging: Paging) -> Result<OrdersPage, OrdersError> {
    let mut conn = db.pool.acquire().await?;
    let total = read::count(&mut conn, member_id).await?;
    let ids = read::page_ids(
        &mut conn,
        member_id,
        i64::from(paging.size),
        paging.offset(),
    )
    .await?;
    let mut orders = Vec::with_capacity(ids.len());
    for id in ids {
        if let Some((order, _)) = read::order(&mut conn, member_id, id).await? {
            orders.push(OrderSummary {
                detail_url: detail_url(
                    crate::orders::settings::OrdersSettings::current().revamped_detail,
                    &order.cart_type,
                    order.id,
                    None,
                ),
                order,
            });
        }
    }
    Ok(OrdersPage {
        orders,
        page: paging.page,
        size: paging.size,
        total,
    })
}

/// The page of one of the member's orders, the one their list links to (`detail_url`):
/// a form on it comes back there. Another member's is [`OrdersError::NotFound`].
pub async fn page_of(db: &Db, member_id: i64, order_id: i64) -> Result<String, OrdersError> {
    let mut conn = db.pool.acquire().await?;
    let cart_type = read::cart_type(&mut conn, member_id, order_id)
        .await?
        .ok_or(OrdersError::NotFound)?;
    let revamped = crate::orders::settings::OrdersSettings::current().revamped_detail;
    Ok(detail_url(revamped, &cart_type, order_id, None))
}

/// One of the member's orders with its life; another member's is [`OrdersError::NotFound`].
pub async fn detail(db: &Db, member_id: i64, order_id: i64) -> Result<OrderDetail, OrdersError> {
    let mut conn = db.pool.acquire().await?;
    let (order, tracking) = read::order(&mut conn, member_id, order_id)
        .await?
        .ok_or(OrdersError::NotFound)?;
    let mut steps = read::events(&mut conn, order_id).await?;
    sort_timeline(&mut steps);
    let payment = read::payment(&mut conn, order_id)
        .await?
        .filter(|p| !p.reference.is_empty())
        .map(|p| OrderPayment {
            card: p.last4.as_deref().and_then(rules::mask_card),
            method: p.method,
            reference: rules::mask_reference(&p.reference),
            paid_at: p.paid_at,
        });
    let refunded_amount = read::refunded_amount(&mut conn, order_id).await?;
    let returns = crate::orders::returns::store::of_order(&mut conn, order_id).await?;
    let travellers = read::travellers(&mut conn, order_id).await?;
    let shipped = OrderStatus::parse(&order.status).is_some_and(OrderStatus::is_shipped);
    Ok(OrderDetail {
        detail_url: detail_url(
            crate::orders::settings::OrdersSettings::current().revamped_detail,
            &order.cart_type,
            order.id,
            None,
        ),
        help_url: help_url(order.id),
        refunded_amount,
        returns,
        travellers,
        tracking_number: tracking.filter(|_| shipped),
        events: steps
            .into_iter()
            .map(|s| OrderEvent {
                status: s.status,
                at: s.at,
                reason: s.reason,
            })
            .collect(),
        payment,
        order,
    })
}

/// A move the simulator (or an operator) made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moved {
    pub order_id: i64,
    pub from: String,
    pub to: OrderStatus,
    pub tracking_number: Option<String>,
}

/// Moves an order one step along the simulator path of its kind (`to` = `None`) or straight
/// to `to` when the life cycle allows it for that kind of order (see
/// `rules::Fulfilment`), in one transaction: the status, its timeline event, the member's
/// notification, and a tracking number when it ships.
pub async fn advance(
    db: &Db,
    order_id: i64,
    to: Option<&str>,
    note: Option<&str>,
    now: i64,
) -> Result<Moved, OrdersError> {
    let mut tx = db.begin().await?;
    let moved = advance_in(&mut tx, db.backend, order_id, to, note, now).await?;
    tx.commit().await?;
    Ok(moved)
}

/// [`advance`] in the caller's transaction (the back office writes its audit record in it).
pub async fn advance_in(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    backend: Backend,
    order_id: i64,
    to: Option<&str>,
    note: Option<&str>,
    now: i64,
) -> Result<Moved, OrdersError> {
    let (from, tracking) = fulfilment::lock_status(tx, order_id, backend == Backend::Postgres)
        .await?
        .ok_or(OrdersError::NotFound)?;
    let (cart_type, modes, stay) = fulfilment::facts(tx, order_id).await?;
    let facts = Facts {
        kind: Fulfilment::of(&cart_type, &modes),
        stay_over: stay.is_some_and(|(day, days)| stay_over(&day, days, now)),
    };
    let target = plan_move(&from, to, facts).map_err(OrdersError::Refused)?;
    let tracking = match tracking {
        None if target.assigns_tracking() => {
            let number = rules::tracking_number(order_id);
            fulfilment::set_tracking(tx, order_id, &number).await?;
            Some(number)
        }
        other => other,
    };
    status::record(tx, order_id, target.wire(), note, now).await?;
    crate::orders::returns::store::settle(tx, order_id, target.wire(), now).await?;
    Ok(Moved {
        order_id,
        from,
        to: target,
        tracking_number: tracking.filter(|_| target.is_shipped()),
    })
}

/// The moves the life cycle allows an order of this kind from its status now: what an
/// operator is offered.
pub async fn moves(db: &Db, order_id: i64, now: i64) -> Result<Vec<OrderStatus>, OrdersError> {
    let mut conn = db.pool.acquire().await?;
    let status: Option<String> = sqlx::query_scalar("SELECT status FROM orders WHERE id = $1")
        .bind(order_id)
        .fetch_optional(&mut *conn)
        .await?;
    let Some(status) = status.as_deref().and_then(OrderStatus::parse) else {
        return Err(OrdersError::NotFound);
    };
    let (cart_type, modes, stay) = fulfilment::facts(&mut conn, order_id).await?;
    let facts = Facts {
        kind: Fulfilment::of(&cart_type, &modes),
        stay_over: stay.is_some_and(|(day, days)| stay_over(&day, days, now)),
    };
    Ok(status
        .next_allowed_for(facts.kind)
        .into_iter()
        .filter(|to| plan_move(status.wire(), Some(to.wire()), facts).is_ok())
        .collect())
}

/// Most orders one simulator pass moves.
pub const SIMULATE_BATCH: i64 = 500;

/// One simulator step for every order that can move (each its own transaction): orders in
/// a status with a next step for some kind of order, and the active bookings whose stay is
/// over. An order another writer moved meanwhile, or with no step for its kind, is skipped.
pub async fn simulate(db: &Db, now: i64) -> Result<Vec<Moved>, OrdersError> {
    let movable: Vec<&str> = OrderStatus::ALL
        .iter()
        .filter(|s| **s != OrderStatus::Active)
        .filter(|s| {
            [
                Fulfilment::Parcel,
                Fulfilment::PreReception,
                Fulfilment::Booking,
                Fulfilment::Voucher,
            ]
            .iter()
            .any(|k| s.simulator_next(Facts::of(*k)).is_some())
        })
        .map(|s| s.wire())
        .collect();
    let ids = {
        let mut conn = db.pool.acquire().await?;
        let mut ids = fulfilment::in_statuses(&mut conn, &movable, SIMULATE_BATCH).await?;
        ids.extend(
            fulfilment::active_stays(&mut conn)
                .await?
                .into_iter()
                .filter(|(_, day, days)| stay_over(day, *days, now))
                .map(|(id, _, _)| id)
                .take(SIMULATE_BATCH as usize),
        );
        ids
    };
    let mut moved = Vec::with_capacity(ids.len());
    for id in ids {
        match advance(db, id, None, Some("simulator"), now).await {
            Ok(m) => moved.push(m),
            Err(OrdersError::Refused(_) | OrdersError::NotFound) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(moved)
}

/// `ROSACE_FULFILMENT_SECS` unless set: the background simulator is off.
pub const FULFILMENT_SECS_DEFAULT: u64 = 0;

/// The background fulfilment job (`ROSACE_FULFILMENT_SECS`): one simulator pass every
/// `every`.
pub async fn fulfilment_job(db: Db, every: std::time::Duration) {
    loop {
        tokio::time::sleep(every).await;
        match simulate(&db, crate::platform::state::now()).await {
            Ok(moved) if !moved.is_empty() => {
                tracing::info!(orders = moved.len(), "fulfilment simulator moved orders");
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "fulfilment simulator pass failed"),
        }
    }
}

/// Mails the member the confirmation of their paid order, once whoever asks (a payment
/// answered again by its cart hash, a retried call): the first caller marks the order
/// mailed, then sends. Sending is the mailer's (a failure is logged: the order is paid
/// either way); a crash between the mark and the send loses the email, never the order.
pub async fn mail_confirmation(
    db: &Db,
    mailer: &crate::account::service::Mailer<'_>,
    order_id: i64,
    now: i64,
) -> Result<(), OrdersError> {
    let claimed = sqlx::query(
        "UPDATE orders SET confirmation_mailed_at = $1 WHERE id = $2 AND confirmation_mailed_at = 0",
    )
    .bind(now.max(1))
    .bind(order_id)
    .execute(&db.writes)
    .await?
    .rows_affected()
        == 1;
    if !claimed {
        return Ok(());
    }
    let Some(r) = read::confirmation(&db.pool, order_id).await? else {
        return Ok(());
    };
    let site = crate::site::by_id_or_default(r.site_id);
    let revamped = crate::orders::settings::OrdersSettings::current().revamped_detail;
    let link = format!(
        "{}{}",
        mailer.link_base,
        detail_url(revamped, &r.cart_type, order_id, None)
    );
    let id = order_id.to_string();
    let total = crate::site::format::money(site.locale, r.total);
    let args = [
        ("name", r.first_name.as_str()),
        ("order", id.as_str()),
        ("total", total.as_str()),
        ("link", link.as_str()),
        ("brand", site.brand.name()),
    ];
    mailer
        .send(
            r.site_id,
            &r.email,
            "mail.order_confirmed.subject",
            "mail.order_confirmed.body",
            &args,
            now,
        )
        .await;
    Ok(())
}
