//! Home page. The module layout comes with the shopping-core work; for now the default
//! home lists the site's live sales as tiles.
#[cfg(feature = "ssr")]
pub mod store;

use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use crate::context::RequestCtx;
use crate::model::catalog::SaleCard;
use crate::routes::ResolvedRoute;
use crate::shell::SeoMeta;

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "home/sales")]
pub async fn home_sales(site_id: u16) -> Result<Vec<SaleCard>, ServerFnError> {
    let state =
        use_context::<crate::state::AppState>().ok_or_else(|| ServerFnError::new("no state"))?;
    store::live_sales_cached(&state.db, site_id, crate::state::now())
        .await
        .map_err(|e| {
            tracing::error!(error = %e, "Cannot fetch home sales");
            ServerFnError::new("errors.general_retry.notification")
        })
}

#[component]
pub fn HomePage(route: ResolvedRoute, path: String) -> impl IntoView {
    let _ = route;
    let ctx = RequestCtx::current();
    let site_id = ctx.site_id;
    let sales = Resource::new(move || site_id, home_sales);
    let brand = ctx.site().brand.name();
    let title = ctx.t_with("home.title", &[("brand", brand)]);
    let description = ctx.t_with("home.description", &[("brand", brand)]);
    let ctx_list = ctx.clone();
    view! {
        <SeoMeta title=title.clone() description path />
        <section class="home">
            <div class="home__hero">
                <h1>{title}</h1>
                <p>{ctx.t("home.subtitle")}</p>
            </div>
            <h2 class="home__section-title">{ctx.t("home.sales.title")}</h2>
            <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
                {
                    let ctx = ctx_list.clone();
                    move || {
                        let ctx = ctx.clone();
                        Suspend::new(async move {
                            match sales.await {
                                Ok(list) if list.is_empty() => view! { <p class="empty">{ctx.t("home.sales.empty")}</p> }.into_any(),
                                Ok(list) => view! { <SaleGrid sales=list /> }.into_any(),
                                Err(_) => view! { <p class="error" role="alert">{ctx.t("errors.general_retry.notification")}</p> }.into_any(),
                            }
                        })
                    }
                }
            </Suspense>
        </section>
    }
}

#[component]
fn SaleGrid(sales: Vec<SaleCard>) -> impl IntoView {
    let ctx = RequestCtx::current();
    view! {
        <ul class="sale-grid" data-testid="sale-grid">
            {sales.into_iter().map(|sale| view! { <SaleTile sale ctx=ctx.clone() /> }).collect_view()}
        </ul>
    }
}

#[component]
fn SaleTile(sale: SaleCard, ctx: RequestCtx) -> impl IntoView {
    // Members go to the catalog; visitors to its open-door SEO variant.
    let href = if ctx.is_member() {
        format!("/catalog/{}/{}", sale.id, sale.first_universe_id)
    } else {
        format!(
            "/c/{}/{}/{}",
            sale.seo_slug, sale.id, sale.first_universe_id
        )
    };
    let ends = ctx.t_with("sale.ends_on", &[("date", &ctx.date(sale.end_date))]);
    let price = sale
        .min_price_cents
        .map(|c| ctx.t_with("sale.from_price", &[("price", &ctx.money(c))]));
    let discount = sale
        .max_discount_percent
        .map(|d| ctx.t_with("sale.discount_up_to", &[("percent", &d.to_string())]));
    view! {
        <li class="sale-tile" data-sale-id=sale.id>
            <a href=href>
                <img class="sale-tile__banner" src=sale.banner_url alt="" width="600" height="300" loading="lazy" />
                <div class="sale-tile__body">
                    <img class="sale-tile__logo" src=sale.logo_url alt="" width="48" height="48" loading="lazy" />
                    <div>
                        <h3 class="sale-tile__name">{sale.name}</h3>
                        <p class="sale-tile__meta">
                            {discount.map(|d| view! { <span class="sale-tile__discount">{d}</span> })}
                            {price.map(|p| view! { <span class="sale-tile__price" data-testid="sale-price">{p}</span> })}
                        </p>
                        <p class="sale-tile__ends">{ends}</p>
                    </div>
                </div>
            </a>
        </li>
    }
}
