//! The help pages' data, read while the server renders them (server functions, so the
//! pages stay plain components without islands).
use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use crate::help::model::{Answer, MessageCentre, TicketThread};
use crate::help::rules::{HelpSaleOption, OrderOption};

#[cfg(feature = "ssr")]
use crate::{help::error::HelpError, platform::state::WireResult, wallet::api::member};

/// The member's orders for the form's select.
#[server(prefix = "/api/fn", input = GetUrl, endpoint = "help/orders")]
pub async fn fetch_order_options() -> Result<Vec<OrderOption>, ServerFnError> {
    let state = crate::platform::state::app_state()?;
    let ctx = crate::context::RequestCtx::current();
    crate::help::service::order_options(&state.db, member()?, ctx.site_id)
        .await
        .wire::<HelpError>()
}

/// The sales of the member's orders for the form's sale select (`operationCode`).
#[server(prefix = "/api/fn", input = GetUrl, endpoint = "help/sales")]
pub async fn fetch_sale_options() -> Result<Vec<HelpSaleOption>, ServerFnError> {
    let state = crate::platform::state::app_state()?;
    crate::help::service::sale_options(&state.db, member()?)
        .await
        .wire::<HelpError>()
}

/// An automatic answer the member has not rated yet (the form without scripts shows it
/// after the send); `None` once rated or when not theirs.
#[server(prefix = "/api/fn", input = GetUrl, endpoint = "help/evaluation")]
pub async fn fetch_evaluation(id: String) -> Result<Option<Answer>, ServerFnError> {
    use crate::help::answer::Answerer;
    let state = crate::platform::state::app_state()?;
    let ctx = crate::context::RequestCtx::current();
    let mut conn = state
        .db
        .pool
        .acquire()
        .await
        .map_err(HelpError::from)
        .wire::<HelpError>()?;
    let Some(e) = crate::help::store::evaluation(&mut conn, member()?, &id)
        .await
        .map_err(HelpError::from)
        .wire::<HelpError>()?
    else {
        return Ok(None);
    };
    if e.satisfaction.is_some() {
        return Ok(None);
    }
    let answerer = crate::platform::state::shared::<crate::help::kb::KnowledgeBase>()?.current();
    Ok(answerer.article(ctx.lang(), &e.article_id).map(|a| Answer {
        evaluation_id: e.id.clone(),
        article_id: a.id.clone(),
        title: a.title.clone(),
        body: a.body.clone(),
    }))
}

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "help/centre")]
pub async fn fetch_message_centre() -> Result<MessageCentre, ServerFnError> {
    let state = crate::platform::state::app_state()?;
    crate::help::service::message_centre(&state.db, member()?)
        .await
        .wire::<HelpError>()
}

/// One of the member's threads. Reading it marks nothing: the read mark is a POST
/// (`/my-notifications/read`, or the REST `.../tickets/{id}/read`).
#[server(prefix = "/api/fn", input = GetUrl, endpoint = "help/thread")]
pub async fn fetch_thread(ticket_id: i64) -> Result<TicketThread, ServerFnError> {
    let state = crate::platform::state::app_state()?;
    crate::help::service::thread(&state.db, member()?, ticket_id)
        .await
        .wire::<HelpError>()
}

/// The open chat thread on a reason (and order), if any.
#[server(prefix = "/api/fn", input = GetUrl, endpoint = "help/chat")]
pub async fn fetch_chat(
    reason: String,
    order_id: Option<i64>,
) -> Result<Option<TicketThread>, ServerFnError> {
    let state = crate::platform::state::app_state()?;
    let member_id = member()?;
    let mut conn = state
        .db
        .pool
        .acquire()
        .await
        .map_err(HelpError::from)
        .wire::<HelpError>()?;
    let Some(id) = crate::help::store::open_chat(&mut conn, member_id, &reason, order_id)
        .await
        .map_err(HelpError::from)
        .wire::<HelpError>()?
    else {
        return Ok(None);
    };
    drop(conn);
    // A GET reads nothing: replies are marked read by the message centre's POST form.
    crate::help::service::thread(&state.db, member_id, id)
        .await
        .map(Some)
        .wire::<HelpError>()
}
