//! `/helpform`, `/helpform/{orderId}`, `/postsales/{orderId}/helpform`: the contact form
//! (reason, sub-reason, one of the sales and one of the orders of the member, message,
//! files). A server form: it posts to `FORM_ACTION`, which looks for an automatic answer
//! first. An answer shows here with its rating buttons (`?evaluation=`); a site that takes
//! no tickets shows the extra text (`?extra=1`). The enhancement script sends it in place
//! and asks for the form again when the reason, the sub-reason or the order changes
//! (`_changed`): the page then applies the form's reset rules (`rules::reduce`) to what
//! the member chose.
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use super::pages::PostSalesErrorNotice;
use super::{reason_label, sub_reason_label, ContactMethods, HelpFrame, NewWindowLink, Xsrf};
use crate::context::RequestCtx;
use crate::help::api::{fetch_evaluation, fetch_order_options, fetch_sale_options};
use crate::help::config;
use crate::help::model::Answer;
use crate::help::rules::{self, HelpAction, HelpFormState, HelpSaleOption, OrderOption};
use crate::routes::ResolvedRoute;

pub const FORM_ACTION: &str = "/helpform/send";
pub const FEEDBACK_ACTION: &str = "/helpform/feedback";
/// The choices of a render of the form, after the reset rule of the change the enhancement
/// script reports (`_changed`, with the form's own field names), or as the address says.
struct Choices {
    reason: Option<String>,
    sub: Option<String>,
    sale: Option<String>,
    order: Option<i64>,
    /// The rule keeps what the member typed: the script copies it into the new form (a
    /// refresh does not carry the message).
    keep_message: bool,
    /// A refresh: the address to show (the page's own query names).
    state_url: Option<String>,
}

fn choices(
    query: &leptos_router::params::ParamsMap,
    route_order: Option<i64>,
    path: &str,
) -> Choices {
    let non_empty = |k: &str| query.get(k).filter(|v| !v.is_empty());
    let Some(changed) = query.get("_changed") else {
        return Choices {
            reason: non_empty("reason"),
            sub: non_empty("sub"),
            sale: non_empty("sale").filter(|s| rules::sale_id_of(s).is_some()),
            order: route_order.or_else(|| query.get("order").and_then(|o| o.parse().ok())),
            keep_message: false,
            state_url: None,
        };
    };
    // Any text stands for the message the member typed: the rule clears it or keeps it.
    const TYPED: &str = "typed";
    let before = HelpFormState {
        selected_reason: non_empty("reason"),
        selected_sub_reason: non_empty("subReason"),
        selected_sale: non_empty("operationCode"),
        selected_order: non_empty("orderId").and_then(|o| o.parse().ok()),
        text_area_message: TYPED.into(),
        ..Default::default()
    };
    let action = match changed.as_str() {
        "reason" => Some(HelpAction::SelectReason(
            before.selected_reason.clone().unwrap_or_default(),
        )),
        "subReason" => Some(HelpAction::SelectSubReason(
            before.selected_sub_reason.clone().unwrap_or_default(),
        )),
        "operationCode" => Some(HelpAction::SelectSale(before.selected_sale.clone())),
        "orderId" => Some(HelpAction::SelectOrder(before.selected_order)),
        _ => None,
    };
    let after = match action {
        Some(a) => rules::reduce(before.clone(), a),
        None => before,
    };
    let some = |v: Option<String>| v.filter(|v| !v.is_empty());
    let c = Choices {
        reason: some(after.selected_reason),
        sub: some(after.selected_sub_reason),
        sale: some(after.selected_sale).filter(|s| rules::sale_id_of(s).is_some()),
        order: after.selected_order,
        keep_message: after.text_area_message == TYPED,
        state_url: None,
    };
    let mut q = Vec::new();
    for (k, v) in [("reason", &c.reason), ("sub", &c.sub), ("sale", &c.sale)] {
        if let Some(v) = v {
            q.push(format!("{k}={}", crate::routes::encode_query_value(v)));
        }
    }
    if let Some(o) = c.order {
        q.push(format!("order={o}"));
    }
    let state_url = if q.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{}", q.join("&"))
    };
    Choices {
        state_url: Some(state_url),
        ..c
    }
}

#[component]
pub fn HelpFormPage(route: ResolvedRoute, path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let query = use_query_map().get_untracked();
    let config = config::for_site(ctx.site_id);
    // Files where the site takes them, unless the member is in the control of the
    // `member_contact_form_attachments` holdback (the form then sends JSON, without files).
    let attachments = config.attachments
        && ctx
            .experiments
            .on(crate::model::experiments::Feature::ContactFormAttachments);
    let chosen = choices(&query, route.get_id("orderId"), &path);
    let order_param = chosen.order;
    let reason = chosen.reason.filter(|r| config.reason(r).is_some());
    let sub = chosen.sub;
    let sale_param = chosen.sale;
    let evaluation = query.get("evaluation");
    let extra = query.get("extra").is_some();
    let field_errors: Vec<String> = query
        .get("fields")
        .map(|f| f.split(',').map(str::to_string).collect())
        .unwrap_or_default();
    let orders = Resource::new(|| (), |_| fetch_order_options());
    let sales = Resource::new(|| (), |_| fetch_sale_options());
    let chat_reason = reason.clone().unwrap_or_else(|| "other".into());
    let answer = evaluation.map(|id| Resource::new(move || id.clone(), fetch_evaluation));
    let has_error = move |f: &str| field_errors.iter().any(|e| e == f);
    let [e_subject, e_sub, e_sale, e_order, e_body, e_from] = [
        "subjectId",
        "subReasonId",
        "operationCode",
        "orderId",
        "body",
        "contactFrom",
    ]
    .map(has_error);
    let any_error = e_subject || e_sub || e_sale || e_order || e_body || e_from;
    let err = |f: &'static str, on: bool, key: &'static str| {
        let ctx = RequestCtx::current();
        view! {
            <span class="field__error" id=format!("help-{f}-error") data-error-for=f hidden=!on>
                {on.then(|| ctx.t(key))}
            </span>
        }
    };
    let invalid = |on: bool| on.then_some("true");
    // Only the chosen reason's sub-reasons are offered (all of them before one is chosen).
    let sub_groups: Vec<_> = config
        .reasons
        .iter()
        .filter(|r| !r.sub_reasons.is_empty())
        .filter(|r| reason.as_deref().is_none_or(|chosen| chosen == r.id))
        .collect();
    let no_sub = sub_groups.is_empty();
    let keep_message = chosen.keep_message || any_error;
    // Without scripts, a refused message comes back from its draft.
    let typed = super::draft::read().body;
    let focus = |on: bool| on.then_some("");
    view! {
        <div data-enhance-region="help" data-state-url=chosen.state_url>
        <HelpFrame page="helpform" title=ctx.t("page.helpform") path>
            // A failed load (not a "not found") shows the post-sales error with the ways on.
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    let failed = [orders.await.err(), sales.await.err()]
                        .into_iter()
                        .flatten()
                        .any(|e| !super::is_not_found(&e));
                    failed.then(|| view! { <PostSalesErrorNotice /> })
                })}
            </Suspense>
            {answer.map(|answer| view! {
                <Suspense fallback=|| ()>
                    {move || Suspend::new(async move {
                        match answer.await {
                            Ok(Some(a)) => view! { <AnswerPanel answer=a /> }.into_any(),
                            Err(e) if !super::is_not_found(&e) => view! { <PostSalesErrorNotice /> }.into_any(),
                            _ => ().into_any(),
                        }
                    })}
                </Suspense>
            })}
            <section class="help-extra" data-testid="help-extra" hidden=!extra aria-labelledby="help-extra-title">
                <h2 id="help-extra-title" data-enhance-focus=focus(extra)>{ctx.t("help.extra.title")}</h2>
                <p>{ctx.t("help.extra.text")}</p>
                <ContactMethods methods=config.contact_methods.clone() />
            </section>
            <p class="account-hint">{ctx.t("help.form.intro")}</p>
            <form method="post" action=FORM_ACTION enctype="multipart/form-data" class="account-form help-form"
                novalidate id="help-form" data-testid="help-form" data-enhance=""
                data-tickets=config.tickets_allowed.to_string()>
                <Xsrf />
                <input type="hidden" name="contactFrom" value="Front" />
                <p class="account-form__error" role="alert" data-form-error hidden=!any_error data-enhance-focus=focus(any_error)>
                    {any_error.then(|| ctx.t("help.errors.form"))}
                </p>
                <p class="field">
                    <label for="help-reason">{ctx.t("help.form.reason")}</label>
                    <select id="help-reason" name="reason" required data-testid="help-reason" data-enhance-refresh=""
                        aria-invalid=invalid(e_subject) aria-describedby="help-subjectId-error">
                        <option value="">{ctx.t("help.form.choose")}</option>
                        {config.reasons.iter().map(|r| {
                            let selected = reason.as_deref() == Some(r.id);
                            view! { <option value=r.id selected=selected data-needs-order=r.needs_order.to_string()>{reason_label(&ctx, r.id)}</option> }
                        }).collect_view()}
                    </select>
                    {err("subjectId", e_subject, "help.errors.reason")}
                </p>
                <p class="field" hidden=no_sub>
                    <label for="help-sub">{ctx.t("help.form.sub_reason")}</label>
                    <select id="help-sub" name="subReason" data-testid="help-sub" data-enhance-refresh=""
                        aria-invalid=invalid(e_sub) aria-describedby="help-subReasonId-error">
                        <option value="">{ctx.t("help.form.choose")}</option>
                        {sub_groups.into_iter().map(|r| {
                            view! {
                                <optgroup label=reason_label(&ctx, r.id) data-reason=r.id>
                                    {r.sub_reasons.iter().map(|s| {
                                        let selected = sub.as_deref() == Some(*s);
                                        view! { <option value=*s selected=selected>{sub_reason_label(&ctx, s)}</option> }
                                    }).collect_view()}
                                </optgroup>
                            }
                        }).collect_view()}
                    </select>
                    {err("subReasonId", e_sub, "help.errors.sub_reason")}
                </p>
                <p class="field">
                    <label for="help-sale">{ctx.t("help.form.sale")}</label>
                    <Suspense fallback=|| view! { <select id="help-sale" name="operationCode" disabled><option value="">"…"</option></select> }>
                        {move || {
                            let sale_param = sale_param.clone();
                            Suspend::new(async move {
                                let options = sales.await.unwrap_or_default();
                                view! { <SaleSelect options selected=sale_param invalid=e_sale /> }
                            })
                        }}
                    </Suspense>
                    {err("operationCode", e_sale, "help.errors.sale")}
                </p>
                <p class="field">
                    <label for="help-order">{ctx.t("help.form.order")}</label>
                    <Suspense fallback=|| view! { <select id="help-order" name="orderId" disabled><option value="">"…"</option></select> }>
                        {move || Suspend::new(async move {
                            let options = orders.await.unwrap_or_default();
                            view! { <OrderSelect options selected=order_param invalid=e_order /> }
                        })}
                    </Suspense>
                    <span class="field__hint" id="help-order-alert" data-order-alert hidden=!e_order>
                        {ctx.t("help.order.alert")}
                    </span>
                    {err("orderId", e_order, "help.errors.order")}
                </p>
                <p class="field">
                    <label for="help-body">{ctx.t("help.form.message")}</label>
                    <textarea id="help-body" name="body" rows="6" required data-enhance-keep=focus(keep_message)
                        minlength=rules::MESSAGE_MIN.to_string() maxlength=rules::MESSAGE_MAX.to_string()
                        data-testid="help-body" aria-invalid=invalid(e_body) aria-describedby="help-body-error">{typed}</textarea>
                    {err("body", e_body, "help.errors.message")}
                </p>
                {attachments.then(|| view! {
                    <p class="field">
                        <label for="help-files">{ctx.t("help.form.files")}</label>
                        <input id="help-files" name="fileAttachments" type="file" multiple
                            accept=".pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg"
                            aria-describedby="help-files-hint" data-testid="help-files" />
                        <span class="field__hint" id="help-files-hint">
                            {ctx.t_with("help.form.files_hint", &[
                                ("count", &rules::MAX_FILES.to_string()),
                                ("size", &(rules::FILE_MAX_BYTES / (1024 * 1024)).to_string()),
                                ("total", &(rules::TOTAL_MAX_BYTES / (1024 * 1024)).to_string()),
                            ])}
                        </span>
                    </p>
                })}
                <button type="submit" class="button button--primary" data-testid="help-send">{ctx.t("help.form.send")}</button>
            </form>
            <section class="help-other" aria-labelledby="help-other-title">
                <h2 id="help-other-title">{ctx.t("help.other.title")}</h2>
                <p>
                    // `isPastOrder` from the status of the page's order (rules::is_past_order).
                    <Suspense fallback=|| ()>
                        {move || {
                            let chat_reason = chat_reason.clone();
                            Suspend::new(async move {
                                let options = orders.await.unwrap_or_default();
                                let order = order_param.map(|o| {
                                    (o, options.iter().any(|x| x.order_id == o && x.is_past_order))
                                });
                                let href = rules::chat_link(&chat_reason, order);
                                view! { <NewWindowLink href label=RequestCtx::current().t("help.chat.open") testid="help-chat-link" /> }
                            })
                        }}
                    </Suspense>
                </p>
                <p><a class="help-link" href="/postsales/contactselector">{ctx.t("page.contactselector")}</a></p>
                <ContactMethods methods=config.contact_methods.clone() />
            </section>
        </HelpFrame>
        </div>
    }
}

#[component]
fn SaleSelect(
    options: Vec<HelpSaleOption>,
    selected: Option<String>,
    invalid: bool,
) -> impl IntoView {
    let ctx = RequestCtx::current();
    view! {
        <select id="help-sale" name="operationCode" data-testid="help-sale" aria-invalid=invalid.then_some("true")
            aria-describedby="help-operationCode-error">
            <option value="">{ctx.t("help.form.no_sale")}</option>
            {options.into_iter().map(|o| {
                let is = selected.as_deref() == Some(o.operation_code.as_str());
                view! { <option value=o.operation_code.clone() selected=is>{o.label}</option> }
            }).collect_view()}
        </select>
    }
}

#[component]
fn OrderSelect(options: Vec<OrderOption>, selected: Option<i64>, invalid: bool) -> impl IntoView {
    let ctx = RequestCtx::current();
    view! {
        <select id="help-order" name="orderId" data-testid="help-order" data-enhance-refresh="" aria-invalid=invalid.then_some("true")
            aria-describedby="help-order-alert help-orderId-error">
            <option value="">{ctx.t("help.form.no_order")}</option>
            {options.into_iter().map(|o| {
                let is = selected == Some(o.order_id);
                view! { <option value=o.order_id.to_string() selected=is data-operation=o.operation_name.clone() data-past=o.is_past_order.to_string()>{o.label}</option> }
            }).collect_view()}
        </select>
    }
}

/// The automatic answer with its two rating buttons (each a form without scripts).
#[component]
pub fn AnswerPanel(answer: Answer) -> impl IntoView {
    let ctx = RequestCtx::current();
    let button = |satisfaction: &'static str, key: &'static str, class: &'static str| {
        let ctx = RequestCtx::current();
        view! {
            <form method="post" action=FEEDBACK_ACTION class="help-answer__rate" data-enhance="">
                <Xsrf />
                <input type="hidden" name="evaluationId" value=answer.evaluation_id.clone() />
                <input type="hidden" name="satisfaction" value=satisfaction />
                <button type="submit" class=class data-testid=format!("help-rate-{satisfaction}")>{ctx.t(key)}</button>
            </form>
        }
    };
    view! {
        <section class="help-answer" data-testid="help-answer" aria-labelledby="help-answer-title">
            <h2 id="help-answer-title" data-enhance-focus="">{ctx.t("help.answer.title")}</h2>
            <h3 data-testid="help-answer-article" data-article=answer.article_id.clone()>{answer.title.clone()}</h3>
            <p>{answer.body.clone()}</p>
            <p class="help-answer__question">{ctx.t("help.answer.question")}</p>
            <div class="help-answer__buttons">
                {button("good", "help.answer.good", "button button--primary")}
                {button("bad", "help.answer.bad", "button")}
            </div>
        </section>
    }
}
