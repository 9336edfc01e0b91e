use leptos::prelude::*;

use crate::context::RequestCtx;
use crate::ui::SeoMeta;

#[component]
pub fn NotFound() -> impl IntoView {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(axum::http::StatusCode::NOT_FOUND);
    }
    let ctx = RequestCtx::current();
    view! {
        <SeoMeta title=ctx.t("notfound.title") description=ctx.t("notfound.text") path="/".to_string() indexable=false />
        <section class="notfound" data-testid="not-found">
            <h1>{ctx.t("notfound.title")}</h1>
            <p>{ctx.t("notfound.text")}</p>
            <a class="button button--primary" href="/">{ctx.t("notfound.home")}</a>
        </section>
    }
}

/// A page a moderator took off the shop (a notice of illegal content): 410 Gone, so
/// search engines drop it, and the shop's words for it.
#[component]
pub fn Removed() -> impl IntoView {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(axum::http::StatusCode::GONE);
    }
    let ctx = RequestCtx::current();
    view! {
        <SeoMeta title=ctx.t("product.removed.title") description=ctx.t("product.removed") path="/".to_string() indexable=false />
        <section class="notfound" data-testid="removed">
            <h1>{ctx.t("product.removed.title")}</h1>
            <p>{ctx.t("product.removed")}</p>
            <a class="button button--primary" href="/">{ctx.t("notfound.home")}</a>
        </section>
    }
}
