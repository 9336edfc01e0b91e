//! `/my-notifications` (and `/gr/my-notifications/`): the message centre. The member's
//! tickets as threads (`?ticket=` opens one) and the notifications: orders that changed
//! status, support answers (`?notification=` opens one). Opening (a GET) marks nothing:
//! "mark as read" is a POST form with the XSRF token (`/my-notifications/read`), which
//! the page script may send in place.
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use super::pages::PostSalesErrorNotice;
use super::{is_not_found, HelpFrame, Xsrf};
use crate::context::RequestCtx;
use crate::help::api::{fetch_message_centre, fetch_thread};
use crate::help::model::{MessageCentre, NotificationItem, TicketThread};
use crate::ui::error_template::ErrorNotice;

pub const REPLY_ACTION: &str = "/my-notifications/reply";
pub const PAGE: &str = "/my-notifications";
pub const READ_ACTION: &str = "/my-notifications/read";

fn status_label(ctx: &RequestCtx, status: &str) -> String {
    ctx.t(&format!("help.status.{status}"))
}

#[component]
pub fn MessageCentrePage(path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let query = use_query_map().get_untracked();
    let ticket: Option<i64> = query.get("ticket").and_then(|t| t.parse().ok());
    let notification: Option<i64> = query.get("notification").and_then(|t| t.parse().ok());
    let body = match ticket {
        Some(id) => {
            let thread = Resource::new(
                move || id,
                |id| async move {
                    let t = fetch_thread(id).await?;
                    let unread = fetch_message_centre()
                        .await
                        .map(|c| c.tickets.iter().any(|x| x.id == id && x.unread > 0))
                        .unwrap_or(false);
                    Ok::<_, ServerFnError>((t, unread))
                },
            );
            view! {
                <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
                    {move || Suspend::new(async move {
                        match thread.await {
                            Ok((t, unread)) => view! { <Thread thread=t unread /> }.into_any(),
                            Err(e) if is_not_found(&e) => view! { <ErrorNotice key="errors.not_found" /> }.into_any(),
                            Err(_) => view! { <PostSalesErrorNotice /> }.into_any(),
                        }
                    })}
                </Suspense>
            }
            .into_any()
        }
        None => {
            let centre = Resource::new(
                move || notification,
                |n| async move { fetch_message_centre().await.map(|c| (c, n)) },
            );
            view! {
                <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
                    {move || Suspend::new(async move {
                        match centre.await {
                            Ok((c, opened)) => view! { <Centre centre=c opened /> }.into_any(),
                            Err(_) => view! { <PostSalesErrorNotice /> }.into_any(),
                        }
                    })}
                </Suspense>
            }
            .into_any()
        }
    };
    // The region the page's forms (reply, mark as read) swap in place: with the notice.
    view! {
        <div data-enhance-region="help-centre">
            <HelpFrame page="centre" title=ctx.t("page.mynotifications") path>
                {body}
            </HelpFrame>
        </div>
    }
}

fn notification_text(ctx: &RequestCtx, n: &NotificationItem) -> String {
    match n.kind.as_str() {
        "ticket" => ctx.t_with(
            "help.notification.ticket",
            &[("subject", n.subject_title.as_deref().unwrap_or(""))],
        ),
        _ => {
            let status = n
                .status
                .as_deref()
                .map(|s| ctx.t(&format!("orders.status.{s}")))
                .unwrap_or_default();
            ctx.t_with(
                "help.notification.order",
                &[
                    ("order", &n.order_id.unwrap_or(0).to_string()),
                    ("status", &status),
                ],
            )
        }
    }
}

fn notification_href(n: &NotificationItem) -> String {
    match (n.kind.as_str(), n.ticket_id) {
        ("ticket", Some(t)) => format!("{PAGE}?ticket={t}"),
        _ => format!("{PAGE}?notification={}", n.id),
    }
}

#[component]
fn Centre(centre: MessageCentre, opened: Option<i64>) -> impl IntoView {
    let ctx = RequestCtx::current();
    let opened = opened.and_then(|id| centre.notifications.iter().find(|n| n.id == id).cloned());
    let no_tickets = centre.tickets.is_empty();
    let no_notifications = centre.notifications.is_empty();
    let unread = centre.unread_count;
    view! {
        <p class="help-unread" data-testid="centre-unread" data-count=unread.to_string()>
            {ctx.t_with("help.bell.unread", &[("count", &unread.to_string())])}
        </p>
        {opened.map(|n| {
            let ctx = RequestCtx::current();
            let text = notification_text(&ctx, &n);
            view! {
                <section class="help-opened" data-testid="notification-opened" aria-labelledby="help-opened-title">
                    <h2 id="help-opened-title">{text}</h2>
                    {n.order_id.map(|o| view! {
                        <p><a class="button" href=format!("/details/{o}")>{ctx.t("help.notification.see_order")}</a></p>
                    })}
                    {(!n.read).then(|| view! { <MarkRead field="notificationId" id=n.id /> })}
                </section>
            }
        })}
        <section class="account-section" aria-labelledby="help-tickets-title">
            <h2 id="help-tickets-title">{ctx.t("help.centre.tickets")}</h2>
            <p class="account-empty" hidden=!no_tickets>{ctx.t("help.centre.no_tickets")}</p>
            <ul class="help-list" data-testid="tickets">
                {centre.tickets.into_iter().map(|t| {
                    let ctx = RequestCtx::current();
                    let has_unread = t.unread > 0;
                    view! {
                        <li class="help-list__item" class:help-list__item--unread=has_unread data-testid="ticket" data-ticket=t.id.to_string()>
                            <a href=format!("{PAGE}?ticket={}", t.id)>{t.subject_title.clone()}</a>
                            <span class=format!("help-status help-status--{}", t.status)>{status_label(&ctx, &t.status)}</span>
                            <span class="help-list__date">{ctx.date(t.updated_at)}</span>
                            {has_unread.then(|| view! { <span class="help-badge">{ctx.t("help.centre.new")}</span> })}
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
        <section class="account-section" aria-labelledby="help-notifications-title">
            <h2 id="help-notifications-title">{ctx.t("help.centre.notifications")}</h2>
            <p class="account-empty" hidden=!no_notifications>{ctx.t("help.centre.no_notifications")}</p>
            <ul class="help-list" data-testid="notifications">
                {centre.notifications.into_iter().map(|n| {
                    let ctx = RequestCtx::current();
                    let unread = !n.read;
                    view! {
                        <li class="help-list__item" class:help-list__item--unread=unread data-testid="notification" data-kind=n.kind.clone() data-read=n.read.to_string()>
                            <a href=notification_href(&n)>{notification_text(&ctx, &n)}</a>
                            <span class="help-list__date">{ctx.date(n.created_at)}</span>
                            {(!n.read).then(|| view! { <span class="help-badge">{ctx.t("help.centre.new")}</span> })}
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
        <p><a class="button button--primary" href="/helpform">{ctx.t("help.centre.new_request")}</a></p>
    }
}

/// One ticket: its messages (member's and support's, with the files listed) and the
/// member's answer box.
#[component]
pub fn Thread(thread: TicketThread, #[prop(optional)] unread: bool) -> impl IntoView {
    let ctx = RequestCtx::current();
    let id = thread.id;
    view! {
        <p><a class="help-link" href=PAGE>{ctx.t("help.centre.back")}</a></p>
        {unread.then(|| view! { <MarkRead field="ticketId" id /> })}
        <section class="help-thread" data-testid="thread" data-ticket=id.to_string() aria-labelledby="help-thread-title">
            <h2 id="help-thread-title">{thread.subject_title.clone()}</h2>
            <p>
                <span class=format!("help-status help-status--{}", thread.status) data-testid="thread-status">{status_label(&ctx, &thread.status)}</span>
                {thread.order_id.map(|o| view! { " " <a class="help-link" href=format!("/details/{o}")>{RequestCtx::current().t_with("help.thread.order", &[("order", &o.to_string())])}</a> })}
            </p>
            <ol class="help-messages">
                {thread.messages.into_iter().map(|m| {
                    let ctx = RequestCtx::current();
                    let who = if m.author == "support" { ctx.t("help.thread.support") } else { ctx.t("help.thread.you") };
                    view! {
                        <li class=format!("help-message help-message--{}", m.author) data-testid="message" data-author=m.author.clone()>
                            <p class="help-message__meta"><strong>{who}</strong>" · "{ctx.date(m.created_at)}</p>
                            <p class="help-message__body">{m.body.clone()}</p>
                            {(!m.attachments.is_empty()).then(|| view! {
                                <ul class="help-message__files" aria-label=ctx.t("help.thread.files")>
                                    {m.attachments.into_iter().map(|a| view! {
                                        <li data-testid="attachment">{format!("{} ({} KB)", a.name, (a.size + 1023) / 1024)}</li>
                                    }).collect_view()}
                                </ul>
                            })}
                        </li>
                    }
                }).collect_view()}
            </ol>
            <form method="post" action=REPLY_ACTION class="account-form" data-testid="reply-form" data-enhance="">
                <Xsrf />
                <input type="hidden" name="ticketId" value=id.to_string() />
                <p class="field">
                    <label for="help-reply">{ctx.t("help.thread.reply")}</label>
                    <textarea id="help-reply" name="body" rows="4" required maxlength="4000" data-testid="reply-body"></textarea>
                </p>
                <button type="submit" class="button button--primary" data-testid="reply-send">{ctx.t("help.thread.send")}</button>
            </form>
        </section>
    }
}

/// "Mark as read": a server form (POST, XSRF token) that works without scripts; the
/// enhancement script sends it in place.
#[component]
fn MarkRead(field: &'static str, id: i64) -> impl IntoView {
    let ctx = RequestCtx::current();
    view! {
        <form method="post" action=READ_ACTION class="help-read" data-testid="mark-read-form" data-enhance="">
            <Xsrf />
            <input type="hidden" name=field value=id.to_string() />
            <button type="submit" class="button" data-testid="mark-read">{ctx.t("help.centre.mark_read")}</button>
        </form>
    }
}
