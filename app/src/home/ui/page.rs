//! The home page: a home built from its modules and banners, or a localized 404 / bad
//! preview date message.
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::context::RequestCtx;
use crate::home::api::{fetch_home, HomeLoad, HomePageQuery};
use crate::home::rules;
use crate::home::ui::{modules, scroll, toast};
use crate::model::home::Home;
use crate::routes::ResolvedRoute;
use crate::ui::error_template::ErrorNotice;
use crate::ui::not_found::NotFound;
use crate::ui::SeoMeta;

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
    let data = Resource::new(key, |(site_id, name, reduced, preview_date)| {
        fetch_home(HomePageQuery {
            site_id,
            name,
            reduced,
            preview_date,
        })
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
                            Err(_) => view! { <ErrorNotice /> }.into_any(),
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
    let scroll_report = home.scroll_depth;
    // A home may ask for a theme of spec 000 §9 (`homes.theme`): it wears that palette.
    let theme = crate::site::theme::Theme::for_home(ctx.site().palette, &home.theme);
    let mut class = theme.block_class("home");
    if !home.background_theme.is_empty() {
        class = format!("{class} home--bg-{}", home.background_theme);
    }
    let toast = home.information_section_toast.clone().map(|text| {
        let key = rules::toast_key(home.id, &text);
        view! { <toast::InfoToast key><p>{text}</p></toast::InfoToast> }
    });
    // Signed-in members only; the first name is the member's own (a mark in a template).
    let member_information = home
        .member_information
        .clone()
        .zip(ctx.member_first_name.clone())
        .map(|(text, name)| {
            view! {
                <p class="home__member" data-testid="home-member-information">
                    <strong>{name}</strong>", "{text}
                </p>
            }
        });
    let overlay = home
        .new_member_overlay
        .clone()
        .filter(|_| ctx.onboarding.new_member_overlay && ctx.is_member())
        .map(|overlay| view! { <NewMemberOverlay overlay path=path.clone() /> });
    view! {
        <SeoMeta title=title.clone() description path=path.clone() />
        {toast}
        <section
            class=class
            class:home--reduced=home.is_reduced
            data-theme=theme.name()
            data-home=home.name.clone()
            data-home-id=home.id
            data-testid="home"
        >
            <div class="home__hero">
                <h1>{heading}</h1>
                <p>{ctx.t("home.subtitle")}</p>
                {member_information}
            </div>
            {preview_note}
            {part_note}
            {modules.into_iter().map(|module| view! { <modules::Module module now /> }).collect_view()}
        </section>
        <scroll::ScrollKeeper home=scroll_name report=scroll_report />
        {overlay}
    }
}

/// The home's overlay for a member who joined less than a week ago (spec 000 §3
/// newMemberOverlay), shown once: either button records it as answered, as a popin is
/// (`server/src/forms/onboarding.rs` `popin`), and comes back to the home.
#[component]
fn NewMemberOverlay(overlay: crate::model::home::NewMemberOverlay, path: String) -> impl IntoView {
    use crate::onboarding::rules::NEW_MEMBER_OVERLAY;
    let ctx = RequestCtx::current();
    let (kind, version) = NEW_MEMBER_OVERLAY;
    view! {
        <div class="modal-backdrop">
            <section class="modal" role="dialog" aria-modal="true" aria-labelledby="new-member-title" data-testid="new-member-overlay">
                <h2 id="new-member-title">{overlay.title}</h2>
                <p>{overlay.text}</p>
                <form method="post" action=crate::onboarding::ui::layer::form_action("popin") class="modal__form">
                    <input type="hidden" name="_xsrf" value=ctx.xsrf.clone() />
                    <input type="hidden" name="back" value=path />
                    <input type="hidden" name="popinType" value=(kind as i64).to_string() />
                    <input type="hidden" name="version" value=version.to_string() />
                    <div class="modal__actions">
                        <button class="button" type="submit" name="action" value="close" data-testid="new-member-close">{ctx.t("home.overlay.close")}</button>
                        <button class="button button--primary" type="submit" name="action" value="accept" data-testid="new-member-accept">{ctx.t("home.overlay.accept")}</button>
                    </div>
                </form>
            </section>
        </div>
    }
}
