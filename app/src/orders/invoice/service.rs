//! Invoice operations: give an order its number (one transaction, idempotent) and render
//! its PDF in the language of the order's site.
use crate::orders::invoice::pdf::{self, InvoiceDoc, Row};
use crate::orders::invoice::store;
use crate::orders::invoice::vat::{self, Extra};
use crate::orders::returns::error::AfterSaleError;
use crate::platform::db::Db;
use crate::site::format::{civil_from_unix, date, money};
use crate::site::i18n::{lang_of, t};

/// The invoice number of the member's paid order, given now if it has none yet. Repeated
/// and concurrent calls for one order get the same number.
pub async fn issue(
    db: &Db,
    member_id: i64,
    order_id: i64,
    now: i64,
) -> Result<String, AfterSaleError> {
    let mut conn = db.pool.acquire().await?;
    let order = store::order(&mut conn, member_id, order_id)
        .await?
        .ok_or(AfterSaleError::NotFound)?;
    if !super::invoiceable(&order.status) {
        return Err(AfterSaleError::NotInvoiceable);
    }
    if let Some((number, _)) = store::existing(&mut conn, order_id).await? {
        return Ok(number);
    }
    drop(conn);
    let year = civil_from_unix(now, 0).year;
    let mut tx = db.begin().await?;
    store::claim(&mut tx, order_id, year, now).await?;
    tx.commit().await?;
    let mut conn = db.pool.acquire().await?;
    store::existing(&mut conn, order_id)
        .await?
        .map(|(n, _)| n)
        .ok_or_else(|| AfterSaleError::Storage(sqlx::Error::RowNotFound))
}

/// The invoice PDF of the member's paid order (issuing its number first if needed):
/// (invoice number, PDF bytes).
pub async fn pdf(
    db: &Db,
    member_id: i64,
    order_id: i64,
    now: i64,
) -> Result<(String, Vec<u8>), AfterSaleError> {
    let number = issue(db, member_id, order_id, now).await?;
    let mut conn = db.pool.acquire().await?;
    let order = store::order(&mut conn, member_id, order_id)
        .await?
        .ok_or(AfterSaleError::NotFound)?;
    let issued_at = store::existing(&mut conn, order_id)
        .await?
        .map(|(_, at)| at)
        .unwrap_or(now);
    let items = store::items(&mut conn, order_id).await?;
    let address = store::address(&mut conn, member_id, order_id).await?;
    let site = crate::site::by_id_or_default(u16::try_from(order.site_id).unwrap_or(1));
    let doc = document(site, &order, &number, issued_at, &items, address);
    Ok((number, pdf::render(&doc)))
}

/// The invoice's text, translated and formatted for the order's site.
fn document(
    site: &crate::site::Site,
    order: &store::OrderRow,
    number: &str,
    issued_at: i64,
    items: &[(String, String, i64, i64)],
    address: Vec<String>,
) -> InvoiceDoc {
    let lang = lang_of(site.locale);
    let tr = |k: &str| t(lang, k);
    let m = |cents: i64| money(site.locale, cents);
    let seller = vat::seller_for(site.site_id);
    let lines: Vec<(String, i64, i64)> = items
        .iter()
        .map(|(name, label, q, unit)| {
            let name = if label.trim().is_empty() {
                name.clone()
            } else {
                format!("{name} – {label}")
            };
            (name, *q, *unit)
        })
        .collect();
    let b = vat::breakdown(
        &lines,
        order.shipping,
        order.discount,
        order.loyalty,
        seller.vat_rate,
    );
    let rate = format!("{} %", seller.vat_rate);
    let row = |name: String, l: &vat::Line| Row {
        name,
        quantity: l.quantity.to_string(),
        unit_price: m(l.unit_price),
        rate: rate.clone(),
        vat: m(l.vat),
        total: m(l.gross),
    };
    let mut rows: Vec<Row> = b.items.iter().map(|l| row(l.name.clone(), l)).collect();
    for (kind, l) in &b.extras {
        let key = match kind {
            Extra::Loyalty => "aftersale.invoice.loyalty",
            Extra::Shipping => "aftersale.invoice.shipping",
            Extra::Discount => "aftersale.invoice.discount",
        };
        rows.push(row(tr(key), l));
    }
    InvoiceDoc {
        title: tr("aftersale.invoice.title"),
        seller: vec![
            seller.legal_name.to_string(),
            seller.address[0].to_string(),
            seller.address[1].to_string(),
            format!("{} {}", tr("aftersale.invoice.vat_id"), seller.vat_id),
        ],
        facts: vec![
            (tr("aftersale.invoice.number"), number.to_string()),
            (tr("aftersale.invoice.order"), order.id.to_string()),
            (
                tr("aftersale.invoice.date"),
                date(site.date_format, issued_at),
            ),
            (
                tr("aftersale.invoice.order_date"),
                date(site.date_format, order.created_at),
            ),
        ],
        address_title: tr("aftersale.invoice.address"),
        address,
        header: Row {
            name: tr("aftersale.invoice.col.name"),
            quantity: tr("aftersale.invoice.col.qty"),
            unit_price: tr("aftersale.invoice.col.unit"),
            rate: tr("aftersale.invoice.col.rate"),
            vat: tr("aftersale.invoice.col.vat"),
            total: tr("aftersale.invoice.col.total"),
        },
        rows,
        totals: vec![
            (tr("aftersale.invoice.total_net"), m(b.totals.net)),
            (tr("aftersale.invoice.total_vat"), m(b.totals.vat)),
            (tr("aftersale.invoice.total_gross"), m(order.total)),
        ],
        footer: vec![
            tr("aftersale.invoice.footer"),
            format!("{} · {}", seller.legal_name, seller.vat_id),
        ],
    }
}
