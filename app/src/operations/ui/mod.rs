//! `/operation`: where a code that did not land says why (unknown, or over), and where a
//! visitor may type a code (a server form: Post/Redirect/Get to `/operation/{code}`).
pub mod selection;

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::context::RequestCtx;
use crate::operations::rules::{self, Refusal};
use crate::ui::SeoMeta;

pub const FORM_ACTION: &str = "/operation/form";

#[component]
pub fn OperationPage(path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let query = use_query_map().get_untracked();
    let refusal = query.get("error").and_then(|k| Refusal::from_key(&k));
    // Shown back only in its normalized shape: a link cannot put free text on the page.
    let code = query
        .get("code")
        .and_then(|c| rules::normalize_code(&c))
        .unwrap_or_default();
    let title = ctx.t("page.operation");
    let brand = ctx.site().brand.name();
    let description = ctx.t_with("page.description", &[("page", &title), ("brand", brand)]);
    let message = refusal.map(|r| {
        let text = if code.is_empty() {
            ctx.t(r.message_key())
        } else {
            ctx.t_with(&format!("{}_code", r.message_key()), &[("code", &code)])
        };
        view! { <p class="account-notice account-notice--error" role="alert" data-testid="operation-error" data-reason=r.message_key()>{text}</p> }
    });
    view! {
        <SeoMeta title=title.clone() description path indexable=false />
        <section class="operation" data-testid="operation-page">
            <h1>{title}</h1>
            {message}
            <form class="operation__form" method="post" action=FORM_ACTION>
                <input type="hidden" name="_xsrf" value=ctx.xsrf.clone() />
                <label for="operation-code">{ctx.t("operation.code.label")}</label>
                <input id="operation-code" name="code" required maxlength="32" autocomplete="off" value=code.clone() />
                <button class="button button--primary" type="submit">{ctx.t("operation.code.submit")}</button>
            </form>
            <p><a href="/">{ctx.t("notfound.home")}</a></p>
        </section>
    }
}

#[server(prefix = "/api/fn", input = leptos::server_fn::codec::GetUrl, endpoint = "catalog/by-id")]
pub async fn resolve_catalog(id: i64) -> Result<Option<String>, ServerFnError> {
    use crate::platform::state::WireResult;
    let state = crate::platform::state::app_state()?;
    let ctx = RequestCtx::current();
    crate::operations::store::sale_catalog(
        &state.db,
        ctx.site_id,
        id,
        crate::platform::state::now(),
    )
    .await
    .wire::<crate::catalog::error::CatalogError>()
}

/// `/gr/catalog/{id}`: a sale's catalog by the sale's id. The server answers with a
/// redirect (302: sales end) to the canonical catalog address, the query kept; an unknown
/// sale, another site's or one that is over is the 404 page.
#[component]
pub fn CatalogByIdPage(id: i64, search: String) -> impl IntoView {
    let load = Resource::new(move || id, resolve_catalog);
    view! { <CatalogRedirect load search label="page.catalog" /> }
}

/// A catalog's by-id or by-slug address once its look-up answers: the redirect to the
/// catalog found with the address's query kept (see [`redirect_or_not_found`]).
#[component]
fn CatalogRedirect(
    load: Resource<Result<Option<String>, ServerFnError>>,
    search: String,
    label: &'static str,
) -> impl IntoView {
    view! {
        <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
            {
                let search = search.clone();
                move || {
                    let search = search.clone();
                    Suspend::new(async move {
                        let found = load
                            .await
                            .map(|t| t.map(|t| crate::routes::with_query(&t, &search)));
                        redirect_or_not_found(found, "catalog-redirect", label)
                    })
                }
            }
        </Suspense>
    }
}

#[server(prefix = "/api/fn", input = leptos::server_fn::codec::GetUrl, endpoint = "travel/catalog-by-slug")]
pub async fn resolve_travel_catalog(slug: String) -> Result<Option<String>, ServerFnError> {
    use crate::platform::state::WireResult;
    let state = crate::platform::state::app_state()?;
    let ctx = RequestCtx::current();
    crate::operations::store::travel_catalog_by_slug(
        &state.db,
        ctx.site_id,
        &slug,
        crate::platform::state::now(),
    )
    .await
    .wire::<crate::catalog::error::CatalogError>()
}

/// `/gr/catalog/{slug}`: a live travel sale's catalog by the sale's slug (the catalog
/// link rule of spec 001 §2, `travel::rules::catalog_link`). The server answers with a
/// redirect (302: sales end) to `/t/c/{id}`, the query kept; a slug no live travel sale of
/// the site has is the 404 page.
#[component]
pub fn TravelCatalogBySlugPage(slug: String, search: String) -> impl IntoView {
    let load = Resource::new(move || slug.clone(), resolve_travel_catalog);
    view! { <CatalogRedirect load search label="page.travelcatalog" /> }
}

#[server(prefix = "/api/fn", input = leptos::server_fn::codec::GetUrl, endpoint = "product/by-id")]
pub async fn resolve_product(id: i64) -> Result<Option<String>, ServerFnError> {
    use crate::platform::state::WireResult;
    let state = crate::platform::state::app_state()?;
    let ctx = RequestCtx::current();
    crate::operations::store::product_page(
        &state.db,
        ctx.site_id,
        id,
        crate::platform::state::now(),
    )
    .await
    .wire::<crate::catalog::error::CatalogError>()
}

/// `/gr/product/{id}`: a product by its id alone, as a campaign link's `productid` names it
/// (spec 000 §2's entry vocabulary). The server answers with a redirect (302: sales end) to
/// the product's page in its sale; an unknown product, another site's, or one whose sale is
/// over is the 404 page. Members only: a visitor signs in first and comes back here.
#[component]
pub fn ProductByIdPage(id: i64) -> impl IntoView {
    let load = Resource::new(move || id, resolve_product);
    view! {
        <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
            {move || Suspend::new(async move {
                redirect_or_not_found(load.await, "product-redirect", "page.product")
            })}
        </Suspense>
    }
}

/// What a by-id address shows once its look-up answered: a redirect to the page found (with
/// a link to it, titled `label`), the 404 page when there is none, the error notice when the
/// look-up failed.
fn redirect_or_not_found(
    found: Result<Option<String>, ServerFnError>,
    testid: &'static str,
    label: &'static str,
) -> AnyView {
    match found {
        Ok(Some(target)) => {
            redirect_to(&target);
            let ctx = RequestCtx::current();
            view! { <p class="page__redirect"><a href=target.clone() data-testid=testid>{ctx.t(label)}</a></p> }.into_any()
        }
        Ok(None) => view! { <crate::ui::not_found::NotFound /> }.into_any(),
        Err(_) => view! { <crate::ui::error_template::ErrorNotice /> }.into_any(),
    }
}

/// A temporary redirect while the server renders; in the browser, a full navigation.
pub(crate) fn redirect_to(url: &str) {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        if let Ok(location) = axum::http::HeaderValue::from_str(url) {
            response.set_status(axum::http::StatusCode::FOUND);
            response.insert_header(axum::http::header::LOCATION, location);
        }
    }
    #[cfg(feature = "hydrate")]
    if let Some(window) = web_sys::window() {
        let _ = window.location().replace(url);
    }
    #[cfg(not(any(feature = "ssr", feature = "hydrate")))]
    let _ = url;
}
