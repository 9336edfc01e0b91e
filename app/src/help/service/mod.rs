//! The help centre's operations: each checks its input (with the rules of `rules.rs`),
//! then writes in one transaction.
use crate::help::answer::Answerer;
use crate::help::config::{self, HelpConfig};
use crate::help::error::HelpError;
use crate::help::model::*;
use crate::help::rules::{self, AfterFeedback, HelpAction, HelpField, HelpFormState, TicketStatus};
use crate::help::store::{self, NewTicket};
use crate::model::error::FieldError;
use crate::model::upload::{content_matches, Upload, ALLOWED_TYPES};
use crate::platform::db::Db;
use crate::platform::upload_quota::{self, Uploader};
use crate::text::line::has_control;

mod centre;
mod support;
pub use centre::*;
pub use support::*;

/// The form's state as the message says it, through the same reducer the page uses.
fn state_of(req: &ContactRequest) -> HelpFormState {
    let (reason, sub) = match req.subject_id.split_once('.') {
        Some((r, s)) => (r, Some(s)),
        None => (req.subject_id.as_str(), None),
    };
    let mut s = HelpFormState::default();
    if !reason.is_empty() {
        s = rules::reduce(s, HelpAction::SelectReason(reason.into()));
    }
    if let Some(sub) = sub.filter(|s| !s.is_empty()) {
        s = rules::reduce(s, HelpAction::SelectSubReason(sub.into()));
    }
    s = rules::reduce(s, HelpAction::SelectSale(req.operation_code.clone()));
    s = rules::reduce(s, HelpAction::SelectOrder(req.order_id));
    rules::reduce(s, HelpAction::SetMessage(req.body.clone()))
}

/// The faults of a message on this site: the rules' checks, plus a sub-reason the reason
/// does not have and a title past its bound.
pub fn check_message(config: &HelpConfig, req: &ContactRequest) -> Vec<FieldError> {
    let state = state_of(req);
    let reason = state
        .selected_reason
        .as_deref()
        .and_then(|r| config.reason(r));
    let mut faults = rules::check(&state, reason.map(|r| r.rule()).as_ref());
    if let (Some(reason), Some(sub)) = (reason, state.selected_sub_reason.as_deref()) {
        if !reason.sub_reasons.contains(&sub) && !faults.contains(&HelpField::SubReason) {
            faults.push(HelpField::SubReason);
        }
    }
    let mut errors: Vec<FieldError> = Vec::new();
    if !rules::contact_from_allowed(&req.contact_from) {
        errors.push(FieldError {
            field: "contactFrom".into(),
            message_key: "help.errors.contact_from".into(),
        });
    }
    errors.extend(faults.into_iter().map(|f| FieldError {
        field: f.wire().into(),
        message_key: f.message_key().into(),
    }));
    // The title goes into the support desk's list, the CLI and the subject of the emails
    // about the ticket: a line break or a terminal escape there would forge a header or a
    // line (review N10), so control characters are refused, not cleaned.
    if req.subject_title.chars().count() > 200
        || has_control(&req.subject_title)
        || req
            .operation_code
            .as_deref()
            .is_some_and(|c| c.chars().count() > 64 || has_control(c))
    {
        errors.push(FieldError {
            field: "subjectTitle".into(),
            message_key: "help.errors.form".into(),
        });
    }
    errors
}

/// The faults of a member's message: [`check_message`]'s, but an order is asked for only
/// when the form offers the member one (a member with no order may still write about
/// ordering).
async fn check_member_message(
    db: &Db,
    member_id: i64,
    config: &HelpConfig,
    req: &ContactRequest,
) -> Result<Vec<FieldError>, HelpError> {
    let mut errors = check_message(config, req);
    let order_field = HelpField::Order.wire();
    if errors.iter().any(|e| e.field == order_field)
        && store::member_orders(db, member_id).await?.is_empty()
    {
        errors.retain(|e| e.field != order_field);
    }
    Ok(errors)
}

/// The files' faults: count, each file's size, the total, and the type by content.
pub fn check_files(files: &[Upload]) -> Result<(), HelpError> {
    if files.len() > rules::MAX_FILES {
        return Err(HelpError::FileCount);
    }
    if files.iter().any(|f| f.bytes.len() > rules::FILE_MAX_BYTES) {
        return Err(HelpError::FileTooLarge);
    }
    if files.iter().map(|f| f.bytes.len()).sum::<usize>() > rules::TOTAL_MAX_BYTES {
        return Err(HelpError::TotalTooLarge);
    }
    if files.iter().any(|f| {
        !ALLOWED_TYPES.contains(&f.content_type.as_str())
            || !content_matches(&f.content_type, &f.bytes)
    }) {
        return Err(HelpError::FileType);
    }
    Ok(())
}

pub(super) async fn check_order(
    db: &Db,
    member_id: i64,
    order_id: Option<i64>,
) -> Result<(), HelpError> {
    if let Some(order) = order_id {
        let mut conn = db.pool.acquire().await?;
        if !store::owns_order(&mut conn, member_id, order).await? {
            return Err(HelpError::NotFound);
        }
    }
    Ok(())
}

/// The message's sale must be one the member bought from (the form offers only those).
/// Another sale is refused, not dropped: the client sent something the form never offered,
/// and a ticket must not point support at a sale the member has nothing to do with. A 400
/// on the field rather than a 404: sales are public, there is nothing to hide.
pub(super) async fn check_sale(
    db: &Db,
    member_id: i64,
    operation_code: Option<&str>,
) -> Result<(), HelpError> {
    let Some(code) = operation_code.filter(|c| !c.is_empty()) else {
        return Ok(());
    };
    let bought = match rules::sale_id_of(code) {
        Some(sale_id) => {
            let mut conn = db.pool.acquire().await?;
            store::bought_from_sale(&mut conn, member_id, sale_id).await?
        }
        None => false,
    };
    if bought {
        Ok(())
    } else {
        Err(HelpError::Invalid(vec![FieldError {
            field: "operationCode".into(),
            message_key: "help.errors.sale".into(),
        }]))
    }
}

fn title_of(req: &ContactRequest) -> String {
    let t = req.subject_title.trim();
    if t.is_empty() {
        req.subject_id.clone()
    } else {
        t.to_string()
    }
}

/// One of the member's attached files, to download: (name, content type, content).
pub async fn attachment(
    db: &Db,
    member_id: i64,
    attachment_id: i64,
) -> Result<(String, String, Vec<u8>), HelpError> {
    store::attachment(db, member_id, attachment_id)
        .await?
        .ok_or(HelpError::NotFound)
}

/// Charges the files to the member's and the client's quotas in the transaction that
/// stores them (review N2).
async fn charge(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    who: Uploader<'_>,
    member_id: i64,
    files: &[Upload],
    now: i64,
) -> Result<(), HelpError> {
    let bytes = files.iter().map(|f| f.bytes.len() as i64).sum();
    upload_quota::charge(tx, who, Some(member_id), bytes, now)
        .await?
        .map_err(HelpError::Upload)
}

/// Sends a message to support: it becomes a ticket with the files attached.
pub async fn contact(
    db: &Db,
    who: Uploader<'_>,
    site_id: u16,
    member_id: i64,
    req: &ContactRequest,
    files: &[Upload],
    now: i64,
) -> Result<ContactResponse, HelpError> {
    let config = config::for_site(site_id);
    let errors = check_member_message(db, member_id, &config, req).await?;
    if !errors.is_empty() {
        return Err(HelpError::Invalid(errors));
    }
    if !config.tickets_allowed {
        return Err(HelpError::TicketsClosed);
    }
    if !files.is_empty() && !config.attachments {
        return Err(HelpError::FileCount);
    }
    check_files(files)?;
    check_order(db, member_id, req.order_id).await?;
    check_sale(db, member_id, req.operation_code.as_deref()).await?;
    let title = title_of(req);
    let mut tx = db.begin().await?;
    let ticket_id = store::insert_ticket(
        &mut tx,
        &NewTicket {
            member_id,
            site_id,
            subject_id: &req.subject_id,
            subject_title: &title,
            operation_code: req.operation_code.as_deref().filter(|c| !c.is_empty()),
            order_id: req.order_id,
            channel: "form",
        },
        now,
    )
    .await?;
    let message_id = store::insert_message(
        &mut tx,
        ticket_id,
        member_id,
        "member",
        req.body.trim(),
        TicketStatus::Open.wire(),
        now,
    )
    .await?;
    charge(&mut tx, who, member_id, files, now).await?;
    for f in files {
        store::insert_attachment(&mut tx, message_id, member_id, f).await?;
    }
    tx.commit().await?;
    Ok(ContactResponse {
        ticket_id,
        message_has_been_sent: true,
    })
}

/// Looks for a help article answering the message; an answer is kept as an evaluation
/// (question, article, member) the member then rates.
#[allow(clippy::too_many_arguments)] // the message, its files, who and when
pub async fn answer(
    db: &Db,
    who: Uploader<'_>,
    answerer: &dyn Answerer,
    site_id: u16,
    member_id: i64,
    req: &ContactRequest,
    files: &[Upload],
    now: i64,
) -> Result<AnswerResponse, HelpError> {
    let bucket = format!("help-answer:{member_id}");
    let (limit, window) = rules::ANSWER_RATE_LIMIT;
    if !crate::platform::ratelimit::hit(db, &bucket, limit, window, now).await? {
        return Err(HelpError::TooMany);
    }
    let config = config::for_site(site_id);
    let errors = check_member_message(db, member_id, &config, req).await?;
    if !errors.is_empty() {
        return Err(HelpError::Invalid(errors));
    }
    if !files.is_empty() && !config.attachments {
        return Err(HelpError::FileCount);
    }
    check_files(files)?;
    check_order(db, member_id, req.order_id).await?;
    check_sale(db, member_id, req.operation_code.as_deref()).await?;
    let lang = crate::site::by_id_or_default(site_id).lang;
    let Some(found) = answerer.answer(lang, &req.body) else {
        return Ok(AnswerResponse { answer: None });
    };
    let Some(article) = answerer.article(lang, &found.article_id) else {
        return Ok(AnswerResponse { answer: None });
    };
    let evaluation = store::Evaluation {
        id: crate::platform::session::new_token(),
        member_id,
        site_id: i64::from(site_id),
        article_id: article.id.clone(),
        subject_id: req.subject_id.clone(),
        subject_title: title_of(req),
        question: req.body.trim().to_string(),
        operation_code: req.operation_code.clone().filter(|c| !c.is_empty()),
        order_id: req.order_id,
        satisfaction: None,
        ticket_id: None,
    };
    let mut tx = db.begin().await?;
    store::insert_evaluation(&mut tx, &evaluation, (found.score * 1000.0) as i64, now).await?;
    // The files wait with the question: a "not helpful" rating sends them with it.
    charge(&mut tx, who, member_id, files, now).await?;
    for f in files {
        store::insert_evaluation_file(&mut tx, &evaluation.id, member_id, f).await?;
    }
    tx.commit().await?;
    Ok(AnswerResponse {
        answer: Some(Answer {
            evaluation_id: evaluation.id,
            article_id: article.id.clone(),
            title: article.title.clone(),
            body: article.body.clone(),
        }),
    })
}

/// The member rates an answer: a good rating closes the matter; a bad one sends the
/// stored message as a ticket (once: rating again returns the same outcome), except on a
/// site that takes no tickets, where it is recorded and the form shows the extra text.
pub async fn feedback(
    db: &Db,
    member_id: i64,
    evaluation_id: &str,
    satisfaction: &str,
    now: i64,
) -> Result<FeedbackResponse, HelpError> {
    let good = rules::satisfied(satisfaction).ok_or_else(|| {
        HelpError::Invalid(vec![FieldError {
            field: "satisfaction".into(),
            message_key: "help.errors.form".into(),
        }])
    })?;
    let mut tx = db.begin().await?;
    let e = store::evaluation(&mut tx, member_id, evaluation_id)
        .await?
        .ok_or(HelpError::NotFound)?;
    let site_id = u16::try_from(e.site_id).unwrap_or(crate::site::DEFAULT_SITE_ID);
    let step = rules::after_feedback(good, config::for_site(site_id).tickets_allowed);
    if let Some(done) = e.satisfaction.clone() {
        return Ok(FeedbackResponse {
            message_has_been_sent: e.ticket_id.is_some(),
            display_extra_text: done == "bad" && e.ticket_id.is_none(),
            satisfaction: done,
            ticket_id: e.ticket_id,
        });
    }
    let ticket_id = if step != AfterFeedback::SendTicket {
        None
    } else {
        let id = store::insert_ticket(
            &mut tx,
            &NewTicket {
                member_id,
                site_id,
                subject_id: &e.subject_id,
                subject_title: &e.subject_title,
                operation_code: e.operation_code.as_deref(),
                order_id: e.order_id,
                channel: "form",
            },
            now,
        )
        .await?;
        let message_id =
            store::insert_message(&mut tx, id, member_id, "member", &e.question, "open", now)
                .await?;
        store::settle_evaluation_files(&mut tx, &e.id, Some(message_id)).await?;
        Some(id)
    };
    if ticket_id.is_none() {
        store::settle_evaluation_files(&mut tx, &e.id, None).await?;
    }
    let word = if good { "good" } else { "bad" };
    store::rate_evaluation(&mut tx, &e.id, word, ticket_id).await?;
    tx.commit().await?;
    Ok(FeedbackResponse {
        satisfaction: word.into(),
        ticket_id,
        message_has_been_sent: ticket_id.is_some(),
        display_extra_text: step == AfterFeedback::ShowExtraText,
    })
}

/// The member's orders as the form's options (numbered from 1, newest first).
pub async fn order_options(
    db: &Db,
    member_id: i64,
    site_id: u16,
) -> Result<Vec<rules::OrderOption>, HelpError> {
    let site = crate::site::by_id_or_default(site_id);
    let facts: Vec<rules::OrderFacts> = store::member_orders(db, member_id)
        .await?
        .into_iter()
        .map(|o| rules::OrderFacts {
            order_id: o.id,
            operation_name: if o.operation_name.is_empty() {
                format!("#{}", o.id)
            } else {
                o.operation_name
            },
            date: crate::site::format::date(site.date_format, o.created_at),
            price: crate::site::format::money(site.locale, o.total),
            status: o.status,
        })
        .collect();
    Ok(rules::order_options(&facts))
}

/// The sales of the member's orders as the form's sale options (newest order first, each
/// sale once); the option's `operationCode` is the sale's id.
pub async fn sale_options(
    db: &Db,
    member_id: i64,
) -> Result<Vec<rules::HelpSaleOption>, HelpError> {
    let sales = store::member_sales(db, member_id).await?;
    Ok(rules::sale_options(&sales))
}
