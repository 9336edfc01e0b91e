use leptos::prelude::*;

use crate::context::RequestCtx;
use crate::routes::{Access, ResolvedRoute};
use crate::ui::SeoMeta;

/// A page whose feature is not built yet: its kind's name and a localized notice.
#[component]
pub fn Placeholder(route: ResolvedRoute, path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let title = ctx.t(route.kind.title_key());
    let brand = ctx.site().brand.name();
    let description = ctx.t_with("page.description", &[("page", &title), ("brand", brand)]);
    let indexable = route.access() != Access::MembersOnly;
    view! {
        <SeoMeta title=title.clone() description path indexable />
        <section class="placeholder" data-page-kind=format!("{:?}", route.kind)>
            <h1>{title}</h1>
            <p>{ctx.t("placeholder.text")}</p>
            <a class="button button--primary" href="/">{ctx.t("notfound.home")}</a>
        </section>
    }
}
