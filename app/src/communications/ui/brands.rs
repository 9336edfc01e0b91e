//! Brand alerts: the brands the member follows (each can be dropped) and those they may
//! follow. Each button is its own small form, so it works without scripts.
use leptos::prelude::*;

use super::form_action;
use crate::communications::model::{BrandAlerts, BrandRef};
use crate::context::RequestCtx;
use crate::wallet::ui::frame::FormBase;

fn brand_item(b: &BrandRef, followed: bool) -> impl IntoView {
    let ctx = RequestCtx::current();
    let (action, label) = if followed {
        ("unfollow", ctx.t("communications.brands.unfollow"))
    } else {
        ("follow", ctx.t("communications.brands.follow"))
    };
    let aria = format!("{label} {}", b.name);
    view! {
        <li class="brand-alert" data-testid="brand-alert" data-brand-id=b.id>
            <span>{b.name.clone()}</span>
            <form method="post" action=form_action(action) data-enhance="">
                <FormBase />
                <input type="hidden" name="brandId" value=b.id />
                <button type="submit" class="link-button" aria-label=aria>{label}</button>
            </form>
        </li>
    }
}

#[component]
pub fn BrandAlertsSection(alerts: BrandAlerts) -> impl IntoView {
    let ctx = RequestCtx::current();
    let empty = alerts.brands.is_empty();
    view! {
        <section class="account-section" aria-labelledby="brands-title">
            <h2 id="brands-title">{ctx.t("communications.brands.title")}</h2>
            <p class="account-empty" data-testid="brands-empty" hidden=!empty>{ctx.t("communications.brands.empty")}</p>
            <ul class="brand-alerts" data-testid="brands-followed">
                {alerts.brands.iter().map(|b| brand_item(b, true)).collect_view()}
            </ul>
            <details class="brand-alerts__more">
                <summary>{ctx.t("communications.brands.more")}</summary>
                <ul class="brand-alerts" data-testid="brands-options">
                    {alerts.options.iter().map(|b| brand_item(b, false)).collect_view()}
                </ul>
            </details>
        </section>
    }
}
