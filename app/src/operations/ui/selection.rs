//! `/operation/{code}/selection`: an operation's own selection (spec 000 §3 "Operation:
//! code, products, universes with subUniverses"), products of several sales on one page,
//! with its universes to narrow it (`?universe=`, links that work without scripts).
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::context::RequestCtx;
use crate::operations::model::Operation;
use crate::routes::{encode_query_value, ResolvedRoute};
use crate::ui::error_template::ErrorNotice;
use crate::ui::item_tile::ItemTile;
use crate::ui::not_found::NotFound;
use crate::ui::SeoMeta;

#[server(prefix = "/api/fn", input = leptos::server_fn::codec::GetUrl, endpoint = "operations/selection")]
pub async fn fetch_selection(
    code: String,
    universe: String,
) -> Result<Option<Operation>, ServerFnError> {
    use crate::platform::state::WireResult;
    let state = crate::platform::state::app_state()?;
    let ctx = RequestCtx::current();
    let Some(member) = ctx.member_id else {
        return Err(ServerFnError::new("errors.unauthorized"));
    };
    crate::operations::store::selection(
        &state.db,
        ctx.site_id,
        &code,
        &universe,
        crate::cart::service::cart_service()?.viewer(Some(member)),
        crate::platform::state::now(),
    )
    .await
    .wire::<crate::catalog::error::CatalogError>()
}

#[component]
pub fn SelectionPage(route: ResolvedRoute, path: String) -> impl IntoView {
    let code = route.get("operationCode").unwrap_or_default().to_string();
    let universe = use_query_map()
        .get_untracked()
        .get("universe")
        .unwrap_or_default();
    let wanted = universe.clone();
    let data = Resource::new(
        move || (code.clone(), universe.clone()),
        |(code, universe)| fetch_selection(code, universe),
    );
    view! {
        <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
            {
                let path = path.clone();
                let wanted = wanted.clone();
                move || {
                    let path = path.clone();
                    let wanted = wanted.clone();
                    Suspend::new(async move {
                        match data.await {
                            Ok(Some(op)) => view! { <SelectionView op path wanted /> }.into_any(),
                            Ok(None) => view! { <NotFound /> }.into_any(),
                            Err(_) => view! { <ErrorNotice /> }.into_any(),
                        }
                    })
                }
            }
        </Suspense>
    }
}

#[component]
fn SelectionView(op: Operation, path: String, wanted: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let base = crate::operations::rules::selection_path(&op.code);
    let description = ctx.t_with(
        "operation.selection.description",
        &[("title", &op.title), ("brand", ctx.site().brand.name())],
    );
    let link = {
        let base = base.clone();
        move |id: &str| {
            if id.is_empty() {
                base.clone()
            } else {
                format!("{base}?universe={}", encode_query_value(id))
            }
        }
    };
    let current = |id: &str| (id == wanted).then_some("page");
    let entry = |id: String, name: String| {
        view! { <a href=link(&id) aria-current=current(&id) data-universe=id.clone()>{name}</a> }
    };
    let universes = (!op.universes.is_empty()).then(|| {
        let items = op
            .universes
            .iter()
            .map(|u| {
                let subs = (!u.sub_universes.is_empty()).then(|| {
                    view! {
                        <ul>
                            {u.sub_universes.iter().map(|s| view! { <li>{entry(s.id.clone(), s.name.clone())}</li> }).collect_view()}
                        </ul>
                    }
                });
                view! { <li>{entry(u.id.clone(), u.name.clone())}{subs}</li> }
            })
            .collect_view();
        view! {
            <nav class="catalog__universes selection__universes" aria-label=ctx.t("operation.selection.universes") data-testid="selection-universes">
                <ul>
                    <li>{entry(String::new(), ctx.t("operation.selection.all"))}</li>
                    {items}
                </ul>
            </nav>
        }
    });
    let count = ctx.t_with(
        "operation.selection.count",
        &[("count", &op.products.len().to_string())],
    );
    let _ = path;
    view! {
        <SeoMeta title=op.title.clone() description path=base.clone() indexable=false />
        <section class="selection" data-testid="operation-selection" data-code=op.code.clone()>
            <h1>{op.title.clone()}</h1>
            {universes}
            <p class="catalog__count" data-testid="catalog-count">{count}</p>
            {if op.products.is_empty() {
                view! {
                    <p class="empty" data-testid="selection-empty">{ctx.t("operation.selection.empty")}</p>
                    <a class="button" href="/">{ctx.t("notfound.home")}</a>
                }.into_any()
            } else {
                view! {
                    <ul class="items-grid items-grid--4" data-testid="items-grid">
                        {op.products.into_iter().map(|item| view! { <ItemTile item columns=4 /> }).collect_view()}
                    </ul>
                }.into_any()
            }}
        </section>
    }
}
