//! Closing an account: deactivation (reason kept, sessions ended, status 2) and erasure
//! (GDPR art. 17): the member row stays as an empty shell so the orders kept for
//! accounting still have an owner id, and everything that describes the person goes.
use sqlx::{Any, Row, Transaction};

use crate::auth::rules::MemberStatus;

/// Tables whose rows of the member are deleted on erasure (personal data, or data that
/// only means something for a person who is gone). `cart_items` is emptied first, giving
/// its held units back.
pub const ERASED_TABLES: [&str; 38] = [
    "sessions",
    "member_attribution",
    "partner_credits",
    "account_secure_links",
    "member_cyphers",
    "auth_events",
    "member_popins",
    "favourites",
    "search_queries",
    "cart_recovery",
    "cart_vouchers",
    "carts",
    "voucher_prints",
    "travel_last_viewed",
    "member_addresses",
    "member_bank_details",
    "member_payment_methods",
    "member_communications",
    "member_consent_events",
    "member_commercial_partners",
    "member_subscriptions",
    "brand_alerts",
    "voucher_participations",
    "onboarding_rewards",
    "member_email_changes",
    "cart_items",
    "member_deactivations",
    "checkout_line",
    // The message centre (order and ticket notifications) and the help centre: files and
    // messages before their tickets.
    "notifications",
    "help_attachments",
    "help_messages",
    "help_evaluation_files",
    "help_evaluations",
    "help_tickets",
    // Social sign-in links (the provider's subject identifies the person) and the
    // sponsorship code.
    "member_social_links",
    "sponsor_codes",
    // A/B assignments: which variations the person saw (and, through them, what they
    // browsed); the experiment figures lose them, as they would a closed visitor's cookie.
    "experiment_assignments",
    // The answers to sales' intermediate steps (which sales the person entered).
    "sale_member_states",
];

/// Tables whose rows of the member are kept, by law or for the books, with any personal
/// detail in them emptied: orders (and their delivery address copy), payments, voucher
/// redemptions, travel bookings (travellers and address).
pub const KEPT_TABLES: [&str; 4] = [
    "orders",
    "payments",
    "voucher_redemptions",
    "travel_bookings",
];

/// Tables keyed by an order rather than a member, and what erasure does with them: the
/// ones in `ORDER_TABLES_EMPTIED` hold what the person wrote (return comments, messages to
/// sellers and to rose-deal support, refund addresses, attachments) or what an operator
/// wrote about them (the reason given on a timeline step) and are emptied of it; the
/// others hold only the order's own facts (lines, invoice, vouchers) and stay.
pub const ORDER_TABLES_EMPTIED: [&str; 6] = [
    "order_events",
    "returns",
    "marketplace_messages",
    "rosedeal_refunds",
    "rosedeal_retries",
    "rosedeal_messages",
];

/// The address an erased member's row keeps: unique per member and never deliverable
/// (`.invalid` is reserved), so the real address is free to register again.
pub fn erased_email(member_id: i64) -> String {
    format!("erased-{member_id}@erased.invalid")
}

pub async fn deactivate(
    tx: &mut Transaction<'static, Any>,
    member_id: i64,
    reason: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    set_access(tx, member_id, MemberStatus::Deactivated, reason, now)
        .await
        .map(|_| ())
}

/// Whether the member's basket is frozen for a payment under way.
pub async fn payment_in_progress(
    tx: &mut Transaction<'static, Any>,
    member_id: i64,
) -> Result<bool, sqlx::Error> {
    let n: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM carts WHERE member_id = $1 AND status = 'frozen'")
            .bind(member_id)
            .fetch_one(&mut **tx)
            .await?;
    Ok(n > 0)
}

/// Held stock and travel places go back to the sale before the rows that hold them go.
async fn release_holds(
    tx: &mut Transaction<'static, Any>,
    member_id: i64,
    now: i64,
) -> Result<(), sqlx::Error> {
    let lines = sqlx::query("SELECT option_id, quantity FROM cart_items WHERE member_id = $1")
        .bind(member_id)
        .fetch_all(&mut **tx)
        .await?;
    for r in lines {
        let (option_id, quantity): (i64, i64) = (r.try_get("option_id")?, r.try_get("quantity")?);
        crate::cart::store::give_back(tx, option_id, quantity).await?;
    }
    let held = sqlx::query(
        "SELECT id, duration_id, day, places FROM travel_bookings WHERE member_id = $1 AND status = 'held'",
    )
    .bind(member_id)
    .fetch_all(&mut **tx)
    .await?;
    for r in held {
        let id: i64 = r.try_get("id")?;
        let done = sqlx::query(
            "UPDATE travel_bookings SET status = 'cancelled', updated_at = $2 WHERE id = $1 AND status = 'held'",
        )
        .bind(id)
        .bind(now)
        .execute(&mut **tx)
        .await?
        .rows_affected();
        if done == 1 {
            let day: String = r.try_get("day")?;
            crate::travel::store::booking::release(
                tx,
                r.try_get("duration_id")?,
                &day,
                r.try_get("places")?,
            )
            .await?;
        }
    }
    Ok(())
}

pub async fn erase(
    tx: &mut Transaction<'static, Any>,
    member_id: i64,
    now: i64,
) -> Result<(), sqlx::Error> {
    release_holds(tx, member_id, now).await?;
    for table in ERASED_TABLES {
        // Table names come from the constant above, never from input.
        sqlx::query(&format!("DELETE FROM {table} WHERE member_id = $1"))
            .bind(member_id)
            .execute(&mut **tx)
            .await?;
    }
    sqlx::query(
        "UPDATE order_addresses SET first_name = '', last_name = '', details = '', extras = '',
                zip_code = '', city = '', phone = ''
          WHERE order_id IN (SELECT id FROM orders WHERE member_id = $1)",
    )
    .bind(member_id)
    .execute(&mut **tx)
    .await?;
    erase_order_texts(tx, member_id).await?;
    // Who sponsored whom says something about both people; the vouchers already given stay.
    sqlx::query("DELETE FROM sponsorships WHERE sponsored_id = $1 OR sponsor_id = $1")
        .bind(member_id)
        .execute(&mut **tx)
        .await?;
    sqlx::query(
        "UPDATE travel_bookings SET participants_json = '[]', address_json = '{}' WHERE member_id = $1",
    )
    .bind(member_id)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "UPDATE members SET email = $2, password_hash = '', civility = 0, first_name = '',
                last_name = '', birth_date = NULL, zip_code = '', city = '', phone = '',
                job_id = NULL, sponsor_code = '', optin_partner = 0, optin_email = 0,
                perso_gdpr = 0, adot_optin = NULL, failed_logins = 0, locked_until = 0,
                status = $3, erased_at = $4
          WHERE id = $1",
    )
    .bind(member_id)
    .bind(erased_email(member_id))
    .bind(MemberStatus::Erased as i64)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Empties what the member wrote in the tables of `ORDER_TABLES_EMPTIED` (and the files
/// attached to their rose-deal messages); the rows stay with their orders.
async fn erase_order_texts(
    tx: &mut Transaction<'static, Any>,
    member_id: i64,
) -> Result<(), sqlx::Error> {
    const ORDERS: &str = "(SELECT id FROM orders WHERE member_id = $1)";
    let statements = [
        format!("UPDATE order_events SET reason = NULL WHERE order_id IN {ORDERS}"),
        format!("UPDATE returns SET comment = NULL WHERE order_id IN {ORDERS}"),
        format!("UPDATE marketplace_messages SET message = '' WHERE order_id IN {ORDERS}"),
        format!(
            "UPDATE rosedeal_refunds SET address_json = '{{}}', content = '', iban_masked = ''
              WHERE order_id IN {ORDERS}"
        ),
        format!(
            "UPDATE rosedeal_retries SET address_json = '{{}}', content = '' WHERE order_id IN {ORDERS}"
        ),
        format!(
            "DELETE FROM rosedeal_attachments WHERE message_id IN
               (SELECT id FROM rosedeal_messages WHERE order_id IN {ORDERS})"
        ),
        format!(
            "UPDATE rosedeal_messages SET subject = '', message = '', address_json = '{{}}'
              WHERE order_id IN {ORDERS}"
        ),
    ];
    for sql in statements {
        sqlx::query(&sql).bind(member_id).execute(&mut **tx).await?;
    }
    Ok(())
}

/// An operator's decision on a member's access: `Deactivated` (sign-in answers code 6) or
/// `Blacklisted` (code 7), the reason kept and every session ended; `Active` gives access
/// back. An erased member is left as they are. False when no such member (or erased).
pub async fn set_access(
    tx: &mut Transaction<'static, Any>,
    member_id: i64,
    status: MemberStatus,
    reason: &str,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let changed = sqlx::query(
        "UPDATE members SET status = $2, deactivated_at = CASE WHEN $2 = 1 THEN NULL ELSE $3 END
          WHERE id = $1 AND status <> $4",
    )
    .bind(member_id)
    .bind(status as i64)
    .bind(now)
    .bind(MemberStatus::Erased as i64)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    if changed == 0 {
        return Ok(false);
    }
    if status != MemberStatus::Active {
        sqlx::query(
            "INSERT INTO member_deactivations (member_id, reason, created_at) VALUES ($1, $2, $3)",
        )
        .bind(member_id)
        .bind(reason)
        .bind(now)
        .execute(&mut **tx)
        .await?;
        sqlx::query("DELETE FROM sessions WHERE member_id = $1")
            .bind(member_id)
            .execute(&mut **tx)
            .await?;
    }
    Ok(true)
}
