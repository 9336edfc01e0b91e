//! The open-door SEO variant "sales" (spec 000 §1; the spec names no path): `/sales`,
//! every live sale of the site as the home's grid shows them. Complete server HTML for
//! visitors and crawlers, listed in the sitemap; a visitor's sale links lead to the sales'
//! open-door catalogs. (Its twin "navigation" is the shell's: `shell/navigation.rs`.)
use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use crate::context::RequestCtx;
use crate::model::catalog::SaleCard;
use crate::ui::error_template::ErrorNotice;
use crate::ui::SeoMeta;

use super::tiles::SaleGrid;

/// The site's live sales, in the home's order, and the time they were read at (their
/// countdowns start from it).
#[server(prefix = "/api/fn", input = GetUrl, endpoint = "home/sales")]
pub async fn fetch_live_sales() -> Result<(Vec<SaleCard>, i64), ServerFnError> {
    use crate::platform::state::WireResult;
    let state = crate::platform::state::app_state()?;
    let ctx = RequestCtx::current();
    let now = ctx.now();
    let window = crate::home::rules::LiveWindow::now(now);
    crate::home::store::live_sales_in(&state.db, ctx.site_id, window)
        .await
        .map(|sales| (sales, now))
        .wire::<crate::catalog::error::CatalogError>()
}

pub(crate) fn loading() -> impl IntoView {
    view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }
}

#[component]
pub fn SalesPage() -> impl IntoView {
    let ctx = RequestCtx::current();
    let brand = ctx.site().brand.name();
    let title = ctx.t("page.sales");
    let description = ctx.t_with("open_door.sales.description", &[("brand", brand)]);
    let sales = Resource::new(|| (), |_| fetch_live_sales());
    view! {
        <SeoMeta title=title.clone() description=description.clone() path="/sales".to_string() />
        <section class="open-door" data-testid="sales-page">
            <h1>{title}</h1>
            <p class="open-door__intro">{description}</p>
            <Suspense fallback=loading>
                {move || Suspend::new(async move {
                    let ctx = RequestCtx::current();
                    match sales.await {
                        Ok((list, _)) if list.is_empty() => view! {
                            <p class="open-door__empty" data-testid="sales-empty">{ctx.t("open_door.sales.empty")}</p>
                        }.into_any(),
                        Ok((list, now)) => view! {
                            <p data-testid="sales-count">{ctx.t_with("open_door.sales.count", &[("count", &list.len().to_string())])}</p>
                            <SaleGrid sales=list now />
                        }.into_any(),
                        Err(_) => view! { <ErrorNotice /> }.into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
}
