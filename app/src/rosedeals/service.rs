//! The rose deals' operations: each checks its input, then writes in one transaction.
//! A refund is one row per order (its key), so a refund posted twice, or twice at once,
//! refunds once; the order moves through `orders::store::status::record`.
use crate::account::service::Mailer;
use crate::auth::reauth::Proof;
use crate::model::dsa::{DSA_MAX_FILES, DSA_MAX_FILE_BYTES};
use crate::model::upload::{content_matches, Upload, ALLOWED_TYPES};
use crate::orders::store::status;
use crate::platform::db::Db;
use crate::rosedeals::error::DealsError;
use crate::rosedeals::model::*;
use crate::rosedeals::rules::{self, address_within_bounds, check_contact, TEXT_MAX};
use crate::rosedeals::store;
use crate::wallet::crypto::WalletKey;
use crate::wallet::rules::parse_iban;

pub async fn deal_sales(
    db: &Db,
    site_id: i64,
    member_id: Option<i64>,
    now: i64,
) -> Result<Vec<DealSale>, DealsError> {
    Ok(store::deal_sales(db, site_id, member_id, now).await?)
}

pub async fn orders(
    db: &Db,
    member_id: i64,
    archived: bool,
    page: Option<i64>,
    now: i64,
) -> Result<DealOrderPage, DealsError> {
    let page = rules::page_of(page).ok_or(DealsError::BadRequest)?;
    Ok(store::orders_page(db, member_id, archived, page, now).await?)
}

/// The spec's log lines of a failed list (spec 001 §8).
pub const CURRENT_FAILED: &str = "cannot fetch rosedeals current orders";
pub const ARCHIVED_FAILED: &str = "cannot fetch rosedeals archived orders";

/// Both lists at once (spec 001 §4, §7): current and archived, each with its page (absent:
/// 1), fetched concurrently. Each failure is logged with the spec's words, then the first
/// is returned (rethrown).
pub async fn order_lists(
    db: &Db,
    member_id: i64,
    current_page: Option<i64>,
    archived_page: Option<i64>,
    now: i64,
) -> Result<DealLists, DealsError> {
    let (current, archived) = tokio::join!(
        orders(db, member_id, false, current_page, now),
        orders(db, member_id, true, archived_page, now)
    );
    if let Err(e) = &current {
        tracing::error!(error = %e, "{CURRENT_FAILED}");
    }
    if let Err(e) = &archived {
        tracing::error!(error = %e, "{ARCHIVED_FAILED}");
    }
    Ok(DealLists {
        current: current?,
        archived: archived?,
    })
}

/// The vouchers the contact form offers: every rose-deal order's, newest first, bounded.
pub async fn contact_vouchers(
    db: &Db,
    member_id: i64,
    now: i64,
) -> Result<Vec<MemberVoucher>, DealsError> {
    Ok(store::member_vouchers(db, member_id, now, CONTACT_VOUCHERS_MAX).await?)
}

pub async fn order(
    db: &Db,
    member_id: i64,
    order_id: i64,
    now: i64,
) -> Result<DealOrder, DealsError> {
    let mut conn = db.pool.acquire().await?;
    store::order(&mut conn, member_id, order_id, now)
        .await?
        .ok_or(DealsError::NotFound)
}

pub async fn basket(db: &Db, member_id: i64, now: i64) -> Result<DealBasket, DealsError> {
    Ok(store::basket(db, member_id, now).await?)
}

fn bounded(address: &DealAddress, content: &str) -> Result<(), DealsError> {
    if content.chars().count() > TEXT_MAX || !address_within_bounds(address) {
        return Err(DealsError::BadRequest);
    }
    Ok(())
}

/// Refunds the order's usable vouchers to the IBAN given (checked with the wallet's rules)
/// or, without one, to the wallet's stored IBAN; `storeIban` keeps the given one in the
/// wallet (sealed). The vouchers are voided and the order moves to `refund_in_progress`.
/// An IBAN the wallet does not hold needs the proof of review N1; every refund is mailed
/// to the member with the "secure your account" link.
pub async fn refund(
    db: &Db,
    key: &WalletKey,
    mailer: &Mailer<'_>,
    proof: &Proof<'_>,
    order_id: i64,
    form: &RefundForm,
    now: i64,
) -> Result<RefundResult, DealsError> {
    let member_id = proof.member.member_id;
    bounded(&form.address, &form.content)?;
    let given = !form.iban.trim().is_empty();
    // A stored IBAN this key cannot open counts as none: a given one then needs the proof.
    let stored = match crate::wallet::service::reveal_iban(db, key, member_id).await {
        Ok(s) => s.and_then(|s| parse_iban(&s).ok()),
        Err(e) => {
            tracing::error!(error = %e, "stored IBAN unreadable");
            None
        }
    };
    let iban = if given {
        parse_iban(&form.iban).map_err(|e| DealsError::InvalidIban(e.message_key()))?
    } else {
        stored.clone().ok_or(DealsError::NoIban)?
    };
    if stored.as_ref().map(|s| s.as_str()) != Some(iban.as_str()) {
        proof.check(db, now).await?;
    }
    let mut tx = db.begin().await?;
    let order_status = store::owned_status(&mut tx, member_id, order_id)
        .await?
        .ok_or(DealsError::NotFound)?;
    // Refunded already (a second post, or one that waited for a concurrent one).
    if matches!(order_status.as_str(), "refund_in_progress" | "refunded") {
        return Err(DealsError::AlreadyRefunded);
    }
    let vouchers = store::voucher_rows(&mut tx, order_id, now).await?;
    if vouchers.is_empty() {
        // Under read committed a concurrent refund may have voided the vouchers between the
        // status read above and this one: that post was first, this one is a repeat.
        let again = store::owned_status(&mut tx, member_id, order_id).await?;
        if matches!(again.as_deref(), Some("refund_in_progress" | "refunded")) {
            return Err(DealsError::AlreadyRefunded);
        }
        return Err(DealsError::NotFound);
    }
    let priced: Vec<(&str, i64)> = vouchers.iter().map(|v| (v.status, v.price)).collect();
    let amount = rules::refund_amount(&priced);
    if amount == 0 {
        return Err(DealsError::NothingToRefund);
    }
    let address = serde_json::to_string(&form.address).map_err(|_| DealsError::BadRequest)?;
    // The order's refund row is the lock: a second post (or one racing this) finds it.
    let inserted = sqlx::query(
        "INSERT INTO rosedeal_refunds (order_id, amount, iban_masked, address_json, content, is_suspended, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (order_id) DO NOTHING",
    )
    .bind(order_id)
    .bind(amount)
    .bind(iban.masked())
    .bind(address)
    .bind(&form.content)
    .bind(i64::from(form.is_suspended))
    .bind(now)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if inserted != 1 {
        return Err(DealsError::AlreadyRefunded);
    }
    for v in vouchers.iter().filter(|v| v.status == "active") {
        store::void_voucher(&mut tx, v.id).await?;
    }
    status::record(
        &mut tx,
        order_id,
        "refund_in_progress",
        Some("rose deals refund"),
        now,
    )
    .await?;
    if given && form.store_iban {
        let guid = crate::platform::session::new_token();
        let sealed = key
            .seal(
                iban.as_str().as_bytes(),
                &crate::wallet::service::iban_aad(member_id, &guid),
            )
            .ok_or_else(|| DealsError::Wallet("no wallet key".into()))?;
        let bic: Option<String> =
            sqlx::query_scalar("SELECT bic FROM member_bank_details WHERE member_id = $1")
                .bind(member_id)
                .fetch_optional(&mut *tx)
                .await?;
        let owner = format!(
            "{} {}",
            form.address.first_name.trim(),
            form.address.last_name.trim()
        );
        crate::wallet::store::replace_bank_details(
            &mut tx,
            member_id,
            &guid,
            sealed,
            iban.country(),
            iban.as_str().len(),
            iban.last4(),
            &bic.unwrap_or_default(),
            owner.trim(),
            now,
        )
        .await?;
    }
    tx.commit().await?;
    tracing::info!(order_id, amount, "rose deals refund requested");
    if let Some(me) = crate::account::store::secrets(db, member_id).await? {
        let locale = crate::site::by_id_or_default(me.site_id).locale;
        let money = crate::site::format::money(locale, amount);
        let masked = iban.masked();
        let id = order_id.to_string();
        let args = [("amount", money.as_str()), ("iban", &masked), ("id", &id)];
        mailer
            .notice(db, member_id, &me, "mail.refund_requested", &args, now)
            .await;
    }
    Ok(RefundResult { amount })
}

/// Re-issues the named vouchers of the order: each gets a new code, the old one is void.
/// The refund's IBAN is not touched.
pub async fn retry(
    db: &Db,
    member_id: i64,
    order_id: i64,
    form: &RetryForm,
    now: i64,
) -> Result<RetryResult, DealsError> {
    bounded(&form.address, &form.content)?;
    let mut codes: Vec<&str> = form.vouchers.iter().map(|c| c.trim()).collect();
    codes.retain(|c| !c.is_empty());
    codes.sort_unstable();
    codes.dedup();
    if codes.is_empty() {
        return Err(DealsError::MissingValues);
    }
    if codes.len() > 100 {
        return Err(DealsError::BadRequest);
    }
    let mut tx = db.begin().await?;
    let order_status = store::owned_status(&mut tx, member_id, order_id)
        .await?
        .ok_or(DealsError::NotFound)?;
    if matches!(order_status.as_str(), "refund_in_progress" | "refunded") {
        return Err(DealsError::AlreadyRefunded);
    }
    let rows = store::voucher_rows(&mut tx, order_id, now).await?;
    let mut fresh = Vec::with_capacity(codes.len());
    for code in &codes {
        let old = rows
            .iter()
            .find(|v| v.code == *code && v.status == "active")
            .ok_or(DealsError::NothingToRefund)?;
        if store::void_voucher(&mut tx, old.id).await? != 1
            || store::reissue(&mut tx, order_id, old, now).await? != 1
        {
            return Err(DealsError::NothingToRefund);
        }
        let code: String = sqlx::query_scalar(
            "SELECT code FROM rosedeal_vouchers
              WHERE order_id = $1 AND product_id = $2 AND unit = $3 AND generation = $4",
        )
        .bind(order_id)
        .bind(old.product_id)
        .bind(old.unit)
        .bind(old.generation + 1)
        .fetch_one(&mut *tx)
        .await?;
        fresh.push(code);
    }
    let address = serde_json::to_string(&form.address).map_err(|_| DealsError::BadRequest)?;
    let named = serde_json::to_string(&codes).map_err(|_| DealsError::BadRequest)?;
    sqlx::query(
        "INSERT INTO rosedeal_retries (order_id, vouchers_json, address_json, content, created_at)
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(order_id)
    .bind(named)
    .bind(address)
    .bind(&form.content)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    let vouchers = order(db, member_id, order_id, now)
        .await?
        .vouchers
        .into_iter()
        .filter(|v| fresh.contains(&v.code))
        .collect();
    Ok(RetryResult { vouchers })
}

/// The contact message about some of the member's vouchers (spec 001 §5: "Missing values"
/// without a profile or vouchers).
pub async fn send_message(
    db: &Db,
    member_id: i64,
    msg: &ContactMessage,
    now: i64,
) -> Result<MessageSent, DealsError> {
    check_contact(msg).map_err(|_| DealsError::MissingValues)?;
    let address = msg.address.clone().unwrap_or_default();
    if msg.message.chars().count() > TEXT_MAX
        || msg.subject.chars().count() > rules::FIELD_MAX
        || msg.vouchers.len() > 100
        || !address_within_bounds(&address)
    {
        return Err(DealsError::BadRequest);
    }
    let mut tx = db.begin().await?;
    let mut order_id = None;
    for code in msg
        .vouchers
        .iter()
        .map(|c| c.trim())
        .filter(|c| !c.is_empty())
    {
        let found: Option<i64> = sqlx::query_scalar(
            "SELECT v.order_id FROM rosedeal_vouchers v JOIN orders o ON o.id = v.order_id
              WHERE v.code = $1 AND o.member_id = $2",
        )
        .bind(code)
        .bind(member_id)
        .fetch_optional(&mut *tx)
        .await?;
        let found = found.ok_or(DealsError::NotFound)?;
        order_id.get_or_insert(found);
    }
    let order_id = order_id.ok_or(DealsError::MissingValues)?;
    let request_id = crate::platform::session::new_token();
    sqlx::query(
        "INSERT INTO rosedeal_messages (request_id, order_id, subject, message, vouchers_json, address_json, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&request_id)
    .bind(order_id)
    .bind(&msg.subject)
    .bind(&msg.message)
    .bind(serde_json::to_string(&msg.vouchers).map_err(|_| DealsError::BadRequest)?)
    .bind(serde_json::to_string(&address).map_err(|_| DealsError::BadRequest)?)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(MessageSent { request_id })
}

/// Attaches files to one of the member's messages (rmi): PDF, PNG or JPEG by their magic
/// bytes, sizes and count as the DSA report's (its rules, not a copy).
pub async fn attach(
    db: &Db,
    who: crate::platform::upload_quota::Uploader<'_>,
    member_id: i64,
    request_id: &str,
    uploads: &[Upload],
    now: i64,
) -> Result<AttachmentsStored, DealsError> {
    if uploads.is_empty() {
        return Err(DealsError::MissingValues);
    }
    if uploads.len() > DSA_MAX_FILES {
        return Err(DealsError::Attachment("dsaform.error.file_count"));
    }
    for u in uploads {
        if let Some(key) = rules::attachment_error(
            u.bytes.len(),
            &u.content_type,
            |t| ALLOWED_TYPES.contains(&t) && content_matches(t, &u.bytes),
            DSA_MAX_FILE_BYTES,
        ) {
            return Err(DealsError::Attachment(key));
        }
    }
    if request_id.len() != 32 || !request_id.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(DealsError::NotFound);
    }
    let mut tx = db.begin().await?;
    let message_id: Option<i64> = sqlx::query_scalar(
        "SELECT m.id FROM rosedeal_messages m JOIN orders o ON o.id = m.order_id
          WHERE m.request_id = $1 AND o.member_id = $2",
    )
    .bind(request_id)
    .bind(member_id)
    .fetch_optional(&mut *tx)
    .await?;
    let message_id = message_id.ok_or(DealsError::NotFound)?;
    let bytes = uploads.iter().map(|u| u.bytes.len() as i64).sum();
    if let Err(refused) =
        crate::platform::upload_quota::charge(&mut tx, who, Some(member_id), bytes, now).await?
    {
        return Err(DealsError::Upload(refused));
    }
    for u in uploads {
        sqlx::query(
            "INSERT INTO rosedeal_attachments (message_id, name, content_type, data, created_at)
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(message_id)
        .bind(&u.name)
        .bind(&u.content_type)
        .bind(u.bytes.clone())
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(AttachmentsStored {
        request_id: request_id.to_string(),
        count: uploads.len() as i64,
    })
}
