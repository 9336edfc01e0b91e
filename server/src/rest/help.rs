//! Help centre and message centre calls (spec 001 §7 "Send contact form", "Revamped
//! contact form", "AI response", "AI feedback"; the message centre's list, unread count,
//! threads and reads). Every id in a path is looked up among the signed-in member's own
//! rows only: another member's ticket, evaluation, notification or order answers 404.
use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::StatusCode;
use axum::Json;
use utoipa_axum::{router::OpenApiRouter, routes};

use app::help::error::HelpError;
use app::help::model::*;
use app::help::rules::TOTAL_MAX_BYTES;
use app::help::service;
use app::model::error::ErrorBody;

use super::error::ApiError;
use super::extract::{Path, SignedIn, SiteId};
use crate::state::AppCtx;
use crate::web::client::Client;
use crate::web::multipart::help::read_contact;

/// The contact call takes files: the total allowed and room for the fields. A body past
/// it is refused by axum (413) before it is read.
const HELP_BODY_MAX: usize = TOTAL_MAX_BYTES + 1024 * 1024;

pub fn router() -> OpenApiRouter<Arc<AppCtx>> {
    let contact = OpenApiRouter::new()
        .routes(routes!(contact))
        .layer(DefaultBodyLimit::max(HELP_BODY_MAX));
    let answer = OpenApiRouter::new()
        .routes(routes!(answer))
        .layer(DefaultBodyLimit::max(HELP_BODY_MAX));
    OpenApiRouter::new()
        .merge(contact)
        .merge(answer)
        .routes(routes!(attachment))
        .routes(routes!(feedback))
        .routes(routes!(notifications))
        .routes(routes!(unread_count))
        .routes(routes!(mark_read))
        .routes(routes!(thread))
        .routes(routes!(reply))
        .routes(routes!(mark_ticket_read))
        .routes(routes!(chat))
}

fn wire(e: HelpError) -> ApiError {
    ApiError::wire(&e).logged_as("Help send or feedback failure")
}

fn now() -> i64 {
    app::platform::state::now()
}

fn json_body<T: serde::de::DeserializeOwned>(body: &str) -> Result<T, ApiError> {
    serde_json::from_str(body).map_err(|_| wire(HelpError::Unreadable))
}

/// Sends a message to support; it becomes a ticket. JSON (spec: contactFrom, subjectId,
/// subjectTitle, body, operationCode, orderId), or multipart/form-data with the same
/// fields (or a `payload` part holding the JSON) and up to three `fileAttachments`
/// (PDF, PNG, JPEG by content; 4 MB each, 8 MB together).
#[utoipa::path(post, path = "/api/postsale/v1/help/contact", tag = "help",
    params(("X-XSRF-TOKEN" = String, Header)),
    request_body(content = ContactRequest, content_type = "application/json",
        description = "or multipart/form-data: the same fields (or `payload`, this JSON) and `fileAttachments` parts"),
    responses((status = 201, body = ContactResponse), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 507, body = ErrorBody, description = "files cannot be stored now")))]
async fn contact(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    SiteId(site_id): SiteId,
    Client(client): Client,
    req: Request,
) -> Result<(StatusCode, Json<ContactResponse>), ApiError> {
    let (request, files, _) = read_contact(req).await.map_err(wire)?;
    let who = app.uploader(&client);
    service::contact(
        &app.state.db,
        who,
        site_id,
        m.member_id,
        &request,
        &files,
        now(),
    )
    .await
    .map(|r| (StatusCode::CREATED, Json(r)))
    .map_err(wire)
}

/// Looks for a help article that answers the message: `{"answer": {...}}`, kept as an
/// evaluation the member rates (with the message's files, which a "not helpful" rating
/// sends with the ticket), or `{"answer": null}`. JSON, or multipart as the contact call.
/// At most 20 calls a minute per member (429 `too_many_requests`).
#[utoipa::path(post, path = "/api/postsale/v1/help/answer", tag = "help",
    params(("X-XSRF-TOKEN" = String, Header)),
    request_body(content = ContactRequest, content_type = "application/json",
        description = "or multipart/form-data as the contact call, with `fileAttachments`"),
    responses((status = 200, body = AnswerResponse), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 413, body = ErrorBody), (status = 429, body = ErrorBody),
        (status = 507, body = ErrorBody, description = "files cannot be stored now")))]
async fn answer(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    SiteId(site_id): SiteId,
    Client(client): Client,
    req: Request,
) -> Result<Json<AnswerResponse>, ApiError> {
    let (request, files, _) = read_contact(req).await.map_err(wire)?;
    let answerer = app.help.current();
    service::answer(
        &app.state.db,
        app.uploader(&client),
        answerer.as_ref(),
        site_id,
        m.member_id,
        &request,
        &files,
        now(),
    )
    .await
    .map(Json)
    .map_err(wire)
}

/// Downloads a file the member attached to one of their messages: their own files only
/// (anyone else's id answers 404), as an attachment with its stored content type, never
/// sniffed.
#[utoipa::path(get, path = "/api/postsale/v1/help/attachments/{id}", tag = "help",
    params(("id" = i64, Path)),
    responses((status = 200, description = "the file", content_type = "application/octet-stream"),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn attachment(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Path(id): Path<i64>,
) -> Result<axum::response::Response, ApiError> {
    let (name, content_type, content) = service::attachment(&app.state.db, m.member_id, id)
        .await
        .map_err(wire)?;
    // The stored type was checked against the content at upload (PDF, PNG, JPEG).
    let content_type = if app::model::upload::ALLOWED_TYPES.contains(&content_type.as_str()) {
        content_type
    } else {
        "application/octet-stream".into()
    };
    Ok(crate::web::download::attachment(
        &name,
        &content_type,
        content,
    ))
}

/// Rates an answer: `good` closes the matter, `bad` sends the stored message as a ticket.
#[utoipa::path(post, path = "/api/postsale/v1/help/answer/{evaluationId}", tag = "help",
    params(("evaluationId" = String, Path), ("X-XSRF-TOKEN" = String, Header)),
    request_body = FeedbackRequest,
    responses((status = 200, body = FeedbackResponse), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn feedback(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Path(evaluation_id): Path<String>,
    body: String,
) -> Result<Json<FeedbackResponse>, ApiError> {
    let request: FeedbackRequest = json_body(&body)?;
    if !request.evaluation_id.is_empty() && request.evaluation_id != evaluation_id {
        return Err(wire(HelpError::Unreadable));
    }
    service::feedback(
        &app.state.db,
        m.member_id,
        &evaluation_id,
        &request.satisfaction,
        now(),
    )
    .await
    .map(Json)
    .map_err(wire)
}

/// The message centre: notifications (orders, support answers), tickets, unread count.
#[utoipa::path(get, path = "/api/postsale/v1/notifications", tag = "help",
    responses((status = 200, body = MessageCentre), (status = 401, body = ErrorBody)))]
async fn notifications(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
) -> Result<Json<MessageCentre>, ApiError> {
    service::message_centre(&app.state.db, m.member_id)
        .await
        .map(Json)
        .map_err(wire)
}

#[utoipa::path(get, path = "/api/postsale/v1/notifications/unread-count", tag = "help",
    responses((status = 200, body = UnreadCount), (status = 401, body = ErrorBody)))]
async fn unread_count(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
) -> Result<Json<UnreadCount>, ApiError> {
    service::unread_count(&app.state.db, m.member_id)
        .await
        .map(|unread_count| Json(UnreadCount { unread_count }))
        .map_err(wire)
}

/// Marks one notification read; answers the unread count left.
#[utoipa::path(post, path = "/api/postsale/v1/notifications/{id}/read", tag = "help",
    params(("id" = i64, Path), ("X-XSRF-TOKEN" = String, Header)),
    responses((status = 200, body = UnreadCount), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn mark_read(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Path(id): Path<i64>,
) -> Result<Json<UnreadCount>, ApiError> {
    service::mark_read(&app.state.db, m.member_id, id, now())
        .await
        .map(Json)
        .map_err(wire)
}

/// One of the member's tickets with its messages and the files listed.
#[utoipa::path(get, path = "/api/postsale/v1/help/tickets/{id}", tag = "help",
    params(("id" = i64, Path)),
    responses((status = 200, body = TicketThread), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn thread(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Path(id): Path<i64>,
) -> Result<Json<TicketThread>, ApiError> {
    service::thread(&app.state.db, m.member_id, id)
        .await
        .map(Json)
        .map_err(wire)
}

/// The member answers in one of their threads (it reopens).
#[utoipa::path(post, path = "/api/postsale/v1/help/tickets/{id}/messages", tag = "help",
    params(("id" = i64, Path), ("X-XSRF-TOKEN" = String, Header)), request_body = ReplyRequest,
    responses((status = 201, body = TicketThread), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn reply(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Path(id): Path<i64>,
    body: String,
) -> Result<(StatusCode, Json<TicketThread>), ApiError> {
    let request: ReplyRequest = json_body(&body)?;
    service::reply(&app.state.db, m.member_id, id, &request.body, now())
        .await
        .map(|t| (StatusCode::CREATED, Json(t)))
        .map_err(wire)
}

/// Marks support's answers in one thread read; answers the unread count left.
#[utoipa::path(post, path = "/api/postsale/v1/help/tickets/{id}/read", tag = "help",
    params(("id" = i64, Path), ("X-XSRF-TOKEN" = String, Header)),
    responses((status = 200, body = UnreadCount), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn mark_ticket_read(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    Path(id): Path<i64>,
) -> Result<Json<UnreadCount>, ApiError> {
    service::mark_ticket_read(&app.state.db, m.member_id, id, now())
        .await
        .map(Json)
        .map_err(wire)
}

/// A chat message: starts or continues the member's chat thread on a reason (and order).
#[utoipa::path(post, path = "/api/postsale/v1/help/chat", tag = "help",
    params(("X-XSRF-TOKEN" = String, Header)), request_body = ChatRequest,
    responses((status = 201, body = TicketThread), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn chat(
    State(app): State<Arc<AppCtx>>,
    SignedIn(m): SignedIn,
    SiteId(site_id): SiteId,
    body: String,
) -> Result<(StatusCode, Json<TicketThread>), ApiError> {
    let request: ChatRequest = json_body(&body)?;
    service::chat(&app.state.db, site_id, m.member_id, &request, now())
        .await
        .map(|t| (StatusCode::CREATED, Json(t)))
        .map_err(wire)
}
