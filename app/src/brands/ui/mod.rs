//! `/brandsplace`: the letter index, the search (a GET form; with the enhancement script
//! each keystroke asks the server for the list, swapped in below the field, so the match
//! rule runs once, in Rust), one section per letter, and for a signed-in member a follow /
//! stop following form per brand (Post/Redirect/Get to `/brandsplace/form`, back here
//! with a notice).
use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;
use leptos_router::hooks::use_query_map;

use crate::brands::model::PlaceBrand;
use crate::brands::rules;
use crate::context::RequestCtx;
use crate::ui::error_template::ErrorNotice;
use crate::ui::SeoMeta;

/// The page's one path, its canonical whatever the request's variant (`/gr/brandsplace`,
/// a trailing slash).
pub const PAGE: &str = "/brandsplace";
/// The target of a follow / stop following form (`server/src/forms/brands.rs`: one route
/// per action).
pub fn form_action(action: &str) -> String {
    format!("/brandsplace/form/{action}")
}

/// Keys a redirect back here may show.
const NOTICES: [&str; 4] = [
    "brandsplace.notice.followed",
    "brandsplace.notice.unfollowed",
    "errors.not_found",
    "errors.general_retry.notification",
];

pub fn known_notice(key: &str) -> Option<&'static str> {
    NOTICES.iter().copied().find(|k| *k == key)
}

#[server(prefix = "/api/fn", input = GetUrl, endpoint = "brands/place")]
pub async fn fetch_brands() -> Result<Vec<PlaceBrand>, ServerFnError> {
    use crate::platform::state::WireResult;
    let state = crate::platform::state::app_state()?;
    let ctx = RequestCtx::current();
    crate::brands::store::live_brands(
        &state.db,
        ctx.site_id,
        ctx.member_id,
        crate::platform::state::now(),
        ctx.experiments
            .on(crate::model::experiments::Feature::BrandsPlaceDetails),
    )
    .await
    .wire::<crate::catalog::error::CatalogError>()
}

#[component]
pub fn BrandsPlacePage() -> impl IntoView {
    let ctx = RequestCtx::current();
    let query = use_query_map().get_untracked();
    let search = rules::clean_query(&query.get("q").unwrap_or_default());
    let notice = query.get("notice").and_then(|k| known_notice(&k));
    let error = query.get("error").and_then(|k| known_notice(&k));
    let title = ctx.t("page.brandsplace");
    let brand = ctx.site().brand.name();
    let description = ctx.t_with("brandsplace.description", &[("brand", brand)]);
    let load = Resource::new(|| (), |_| fetch_brands());
    view! {
        <SeoMeta title=title.clone() description path=PAGE.to_string() />
        <div class="brandsplace" data-testid="brandsplace" data-enhance-region="brands">
            <h1>{title}</h1>
            <p class="account-notice" data-testid="brandsplace-notice" role="status" hidden=notice.is_none()
                data-enhance-focus=notice.map(|_| "")>{notice.map(|k| ctx.t(k))}</p>
            <p class="account-notice account-notice--error" role="alert" hidden=error.is_none()
                data-enhance-focus=error.map(|_| "")>{error.map(|k| ctx.t(k))}</p>
            // Sent as the member types; the answer's list replaces the one below (the field
            // stays as it is, with its caret).
            <form class="brandsplace__search" method="get" action="/brandsplace" role="search"
                data-enhance="" data-enhance-target="brands-list">
                <label for="brands-q">{ctx.t("brandsplace.search.label")}</label>
                <input id="brands-q" name="q" type="search" maxlength="60" value=search.clone() data-enhance-input="" autocomplete="off" />
                <button class="button" type="submit">{ctx.t("brandsplace.search.submit")}</button>
            </form>
            <div data-enhance-region="brands-list">
            <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
                {
                    let search = search.clone();
                    move || {
                        let search = search.clone();
                        Suspend::new(async move {
                            match load.await {
                                Ok(all) => view! { <Listing all search /> }.into_any(),
                                Err(_) => view! { <ErrorNotice /> }.into_any(),
                            }
                        })
                    }
                }
            </Suspense>
            </div>
        </div>
    }
}

#[component]
fn Listing(all: Vec<PlaceBrand>, search: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let total = all.len();
    let shown: Vec<PlaceBrand> = all
        .into_iter()
        .filter(|b| rules::matches(&b.name, &search))
        .collect();
    let count = shown.len();
    let any = count > 0;
    let groups = rules::by_letter(shown, |b| &b.name);
    let letters: Vec<char> = groups.iter().map(|g| g.0).collect();
    let member = ctx.is_member();
    let status = if search.is_empty() {
        ctx.t_with("brandsplace.count", &[("n", &count.to_string())])
    } else {
        ctx.t_with(
            "brandsplace.found",
            &[("n", &count.to_string()), ("q", &search)],
        )
    };
    view! {
        <nav class="brandsplace__index" aria-label=ctx.t("brandsplace.index")>
            <ul>
                {rules::index(&letters).into_iter().map(|(c, on)| {
                    let label = if c == '#' { "0-9".to_string() } else { c.to_string() };
                    if on {
                        view! { <li><a href=format!("#{}", rules::anchor(c)) data-letter=c.to_string()>{label}</a></li> }.into_any()
                    } else {
                        view! { <li><span aria-disabled="true">{label}</span></li> }.into_any()
                    }
                }).collect_view()}
            </ul>
        </nav>
        <p class="brandsplace__status" role="status" data-testid="brandsplace-status" data-total=total
            data-enhance-announce="">{status}</p>
        <p class="account-empty" hidden=any data-testid="brandsplace-empty">{ctx.t("brandsplace.empty")}</p>
        {groups.into_iter().map(|(letter, brands)| {
            let id = rules::anchor(letter);
            let heading = if letter == '#' { "0-9".to_string() } else { letter.to_string() };
            let search = search.clone();
            view! {
                <section class="brandsplace__letter" aria-labelledby=format!("{id}-h") data-letter-section=letter.to_string()>
                    <h2 id=format!("{id}-h")><span id=id.clone()></span>{heading}</h2>
                    <ul class="brandsplace__list">
                        {brands.into_iter().map(|b| view! { <BrandRow b member search=search.clone() /> }).collect_view()}
                    </ul>
                </section>
            }
        }).collect_view()}
    }
}

#[component]
fn BrandRow(b: PlaceBrand, member: bool, search: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let items = ctx.t_with("brandsplace.items", &[("n", &b.items.to_string())]);
    let form = member.then(|| {
        let (action, label) = if b.followed {
            ("unfollow", ctx.t("brandsplace.unfollow"))
        } else {
            ("follow", ctx.t("brandsplace.follow"))
        };
        let aria = format!("{label} {}", b.name);
        view! {
            <form method="post" action=form_action(action) class="brandsplace__alert" data-enhance="" data-enhance-target="brands">
                <input type="hidden" name="_xsrf" value=ctx.xsrf.clone() />
                <input type="hidden" name="brandId" value=b.id />
                <input type="hidden" name="q" value=search />
                <button type="submit" class="link-button" aria-label=aria data-testid="brand-alert-toggle">{label}</button>
            </form>
        }
    });
    // `member_brands_place_details`: the brand's live sales, each linked to its catalog.
    let details = (!b.sales.is_empty()).then(|| {
        let label = ctx.t_with("brandsplace.sales", &[("brand", &b.name)]);
        view! {
            <ul class="brandsplace__sales" aria-label=label data-testid="brand-sales">
                {b.sales.iter().map(|s| {
                    let until = ctx.t_with("brandsplace.until", &[("date", &ctx.date(s.ends_at))]);
                    view! {
                        <li>
                            <a href=crate::shell::rules::sale_href(s.id, 0)>{s.name.clone()}</a>
                            " "<span class="brandsplace__until">{until}</span>
                        </li>
                    }
                }).collect_view()}
            </ul>
        }
    });
    view! {
        <li class="brandsplace__brand" data-testid="place-brand" data-brand-id=b.id data-name=b.name.clone() data-followed=b.followed.to_string()>
            <a href=format!("/b/{}", b.id)>{b.name.clone()}</a>
            <span class="brandsplace__items">{items}</span>
            {form}
            {details}
        </li>
    }
}
