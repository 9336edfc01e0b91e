//! Home pages (spec 000 §2): `/`, `/home/default`, `/h/default` and `/gr/home/:homeName`
//! render a home built from its modules and banners. Query: `part=moduleName` (or a module
//! id) shows only that module (an unknown part leaves the home whole), `isHomeReduced=true`
//! the reduced home, `previewDate=YYYY-MM-DD` the home as live on that day. Unknown homes
//! and bad preview dates get localized pages (404 / message).
pub mod modules;
pub mod pedagogical;
#[cfg(feature = "ssr")]
pub mod error;
pub mod rules;
pub mod scroll;
#[cfg(feature = "ssr")]
pub mod store;
pub mod tiles;

use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

use crate::context::RequestCtx;
use crate::model::catalog::SaleCard;
use crate::model::home::Home;
use crate::routes::ResolvedRoute;
use crate::ui::not_found::NotFound;
use crate::ui::SeoMeta;

/// What the home page gets: the home (none: unknown), the server's clock for the first
/// countdown values, or a refused preview date.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HomeLoad {
    pub home: Option<Home>,
    pub now: i64,
    pub bad_date: bool,
}

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "home/sales")]
pub async fn home_sales(site_id: u16) -> Result<Vec<SaleCard>, ServerFnError> {
    let state = use_context::<crate::platform::state::AppState>()
        .ok_or_else(|| ServerFnError::new("no state"))?;
    store::live_sales_cached(&state.db, site_id, crate::platform::state::now())
        .await
        .map_err(|e| {
            tracing::error!(error = %e, "Cannot fetch home sales");
            ServerFnError::new("errors.general_retry.notification")
        })
}

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "home/page")]
pub async fn fetch_home(
    site_id: u16,
    name: String,
    reduced: bool,
    preview_date: String,
) -> Result<HomeLoad, ServerFnError> {
    let state = use_context::<crate::platform::state::AppState>()
        .ok_or_else(|| ServerFnError::new("no state"))?;
    let now = crate::platform::state::now();
    let preview_date = preview_date.trim().to_string();
    let preview_day = if preview_date.is_empty() {
        None
    } else {
        match rules::parse_preview_date(&preview_date) {
            Some(day) => Some(day),
            None => {
                return Ok(HomeLoad {
                    home: None,
                    now,
                    bad_date: true,
                })
            }
        }
    };
    let q = store::HomeQuery {
        key: name,
        reduced,
        preview_day,
        preview_date: preview_day.map(|_| preview_date),
        skip_mobile_check: false,
    };
    let home = store::home_cached(&state.db, site_id, &q, now)
        .await
        .map_err(|e| {
            tracing::error!(error = %e, "Cannot fetch home");
            ServerFnError::new("errors.general_retry.notification")
        })?;
    Ok(HomeLoad {
        home,
        now,
        bad_date: false,
    })
}

#[component]
pub fn HomePage(route: ResolvedRoute, path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let site_id = ctx.site_id;
    let name = route.get("homeName").unwrap_or("default").to_string();
    let query = use_query_map();
    let key = {
        let name = name.clone();
        move || {
            query.with(|q| {
                (
                    site_id,
                    name.clone(),
                    q.get_str("isHomeReduced") == Some("true"),
                    q.get("previewDate").unwrap_or_default(),
                )
            })
        }
    };
    let data = Resource::new(key, |(site, name, reduced, preview)| {
        fetch_home(site, name, reduced, preview)
    });
    let part = move || query.with(|q| q.get("part").filter(|p| !p.is_empty()));
    view! {
        <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
            {
                let path = path.clone();
                move || {
                    let path = path.clone();
                    let part = part();
                    Suspend::new(async move {
                        let ctx = RequestCtx::current();
                        match data.await {
                            Ok(HomeLoad { home: Some(home), now, .. }) => view! { <HomeView home now path part /> }.into_any(),
                            Ok(HomeLoad { bad_date: true, .. }) => {
                                #[cfg(feature = "ssr")]
                                if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
                                    response.set_status(axum::http::StatusCode::BAD_REQUEST);
                                }
                                view! {
                                <section class="home">
                                    <p class="error" role="alert" data-testid="home-bad-date">{ctx.t("home.errors.preview_date")}</p>
                                </section>
                            }.into_any()
                            }
                            Ok(_) => view! { <NotFound /> }.into_any(),
                            Err(_) => view! { <p class="error" role="alert">{ctx.t("errors.general_retry.notification")}</p> }.into_any(),
                        }
                    })
                }
            }
        </Suspense>
    }
}

#[component]
fn HomeView(home: Home, now: i64, path: String, part: Option<String>) -> impl IntoView {
    let ctx = RequestCtx::current();
    let brand = ctx.site().brand.name();
    let is_default = home.name.eq_ignore_ascii_case("default");
    let title = if is_default {
        ctx.t_with("home.title", &[("brand", brand)])
    } else {
        format!("{} — {brand}", home.display_name)
    };
    let description = ctx.t_with("home.description", &[("brand", brand)]);
    let heading = if is_default {
        title.clone()
    } else {
        home.display_name.clone()
    };
    let modules = rules::select_part(&home.modules, part.as_deref());
    let whole = modules.len() == home.modules.len();
    let part_note = (!whole).then(|| {
        let name = modules.first().map(|m| m.title.clone()).unwrap_or_default();
        view! {
            <p class="home__part" data-testid="home-part">
                {ctx.t_with("home.part.showing", &[("name", &name)])}
                " "
                <a href=path.clone()>{ctx.t("home.part.all")}</a>
            </p>
        }
    });
    let preview_note = home.preview_date.clone().map(|d| {
        view! { <p class="home__preview" data-testid="home-preview">{ctx.t_with("home.preview", &[("date", &d)])}</p> }
    });
    let scroll_name = home.name.clone();
    view! {
        <SeoMeta title=title.clone() description path=path.clone() />
        <section
            class="home"
            class:home--reduced=home.is_reduced
            data-home=home.name.clone()
            data-home-id=home.id
            data-testid="home"
        >
            <div class="home__hero">
                <h1>{heading}</h1>
                <p>{ctx.t("home.subtitle")}</p>
            </div>
            {preview_note}
            {part_note}
            {modules.into_iter().map(|module| view! { <modules::Module module now /> }).collect_view()}
        </section>
        <scroll::ScrollKeeper home=scroll_name />
    }
}
