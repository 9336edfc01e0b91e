//! The pedagogical module (spec 000 §2): a 12-unit grid split 6 / 6. Left: heading,
//! subtitle, up to two call-to-action buttons; right: its banners as highlights, 1 per page
//! (as a grid) when there is exactly one, else 2 per page when `twoPerPage` is set, else 4.
//! Pages sit side by side in a scroll-snapping track: the page links work without scripts
//! (anchors), and once hydrated the previous / next buttons scroll the track. Every link of
//! the module carries the home identifier 1.
use leptos::prelude::*;

use crate::catalog::rules::{
    pedagogical_button_variant, pedagogical_items_per_page, ButtonVariant, PEDAGOGICAL_COLUMNS,
};
use crate::context::RequestCtx;
use crate::home::rules::{paginate, with_home_id};
use crate::home::ui::tiles::BannerTile;
use crate::model::home::HomeModule;

/// A CSS colour from the content base, only when it is a plain `#rgb`…`#rrggbbaa` value.
pub fn safe_color(c: Option<&str>) -> Option<String> {
    let c = c?.trim();
    let hex = c.strip_prefix('#')?;
    (matches!(hex.len(), 3 | 4 | 6 | 8) && hex.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| c.to_string())
}

pub fn variant_class(v: ButtonVariant) -> &'static str {
    match v {
        ButtonVariant::Primary => "button button--primary",
        ButtonVariant::Transparent => "button button--transparent",
        ButtonVariant::Tertiary => "button button--tertiary",
    }
}

/// An island: its pager scrolls the highlights and follows the member's own scrolling.
#[island(lazy)]
pub fn Pedagogical(module: HomeModule, now: i64) -> impl IntoView {
    crate::ui::hydrated::island_ready();
    let ctx = RequestCtx::current();
    let s = module.settings.clone();
    let text_color = s.web_text_color.as_deref().unwrap_or("");
    // The first button follows the white-text rule; the secondary one, when present, is
    // outlined next to it.
    let variant = pedagogical_button_variant(s.secondary_button.is_some(), text_color);
    let mut style = String::new();
    if let Some(c) = safe_color(s.web_text_color.as_deref()) {
        style.push_str(&format!("--ped-text:{c};"));
    }
    if let Some(c) = safe_color(s.background_color.as_deref()) {
        style.push_str(&format!("--ped-bg:{c};"));
    }
    let per_page = pedagogical_items_per_page(module.banners.len(), s.two_per_page);
    let pages = paginate(&module.banners, per_page);
    let page_count = pages.len();
    let id = module.id;
    let page_id = move |n: usize| format!("ped-{id}-{}", n + 1);
    let current = RwSignal::new(0usize);
    let track: NodeRef<leptos::html::Div> = NodeRef::new();
    let go = move |n: usize| {
        current.set(n);
        if let Some(el) = track.get_untracked() {
            el.set_scroll_left(el.client_width() * n as i32);
        }
    };
    let [left_cols, right_cols] = PEDAGOGICAL_COLUMNS;
    let primary = s.primary_button.clone().map(|b| {
        view! { <a class=variant_class(variant) data-variant=format!("{variant:?}").to_ascii_lowercase() href=with_home_id(&b.link)>{b.label}</a> }
    });
    let secondary = s.secondary_button.clone().map(|b| {
        view! { <a class="button button--secondary" href=with_home_id(&b.link)>{b.label}</a> }
    });
    let prev_label = ctx.t("home.pedagogical.previous");
    let next_label = ctx.t("home.pedagogical.next");
    view! {
        <section
            class="home-module pedagogical"
            class:pedagogical--white=text_color.trim().eq_ignore_ascii_case("#FFFFFF")
            id=format!("module-{}", module.name)
            data-module=module.name.clone()
            data-testid="pedagogical"
            data-per-page=per_page
            style=style
        >
            <div class="pedagogical__text" style=format!("--cols:{left_cols}")>
                <h2 class="pedagogical__title">{module.title.clone()}</h2>
                {s.subtitle.clone().map(|t| view! { <p class="pedagogical__subtitle">{t}</p> })}
                <p class="pedagogical__actions">{primary}{secondary}</p>
            </div>
            <div class="pedagogical__highlights" style=format!("--cols:{right_cols}")>
                <div
                    class="pedagogical__track"
                    node_ref=track
                    on:scroll=move |_| {
                        if let Some(el) = track.get_untracked() {
                            let w = el.client_width().max(1);
                            current.set(((el.scroll_left() + w / 2) / w).max(0) as usize);
                        }
                    }
                >
                    {pages
                        .into_iter()
                        .enumerate()
                        .map(|(n, page)| {
                            view! {
                                <ul
                                    class=format!("pedagogical__page pedagogical__page--{per_page}")
                                    id=page_id(n)
                                    data-testid="pedagogical-page"
                                >
                                    {page
                                        .into_iter()
                                        .map(|b| {
                                            let link = with_home_id(&b.link);
                                            view! { <BannerTile banner=b now link in_island=true /> }
                                        })
                                        .collect_view()}
                                </ul>
                            }
                        })
                        .collect_view()}
                </div>
                {(page_count > 1).then(|| view! {
                    <nav class="pedagogical__pager" aria-label=ctx.t("home.pedagogical.pages")>
                        <a
                            class="pedagogical__step"
                            data-testid="pedagogical-prev"
                            href=move || format!("#{}", page_id(current.get().saturating_sub(1)))
                            aria-label=prev_label.clone()
                            aria-disabled=move || (current.get() == 0).to_string()
                            on:click=move |ev| {
                                ev.prevent_default();
                                go(current.get_untracked().saturating_sub(1));
                            }
                        >"‹"</a>
                        {(0..page_count).map(|n| view! {
                            <a
                                class="pedagogical__dot"
                                href=format!("#{}", page_id(n))
                                aria-current=move || (current.get() == n).then_some("true")
                                on:click=move |ev| {
                                    ev.prevent_default();
                                    go(n);
                                }
                            >{n + 1}</a>
                        }).collect_view()}
                        <a
                            class="pedagogical__step"
                            data-testid="pedagogical-next"
                            href=move || format!("#{}", page_id((current.get() + 1).min(page_count - 1)))
                            aria-label=next_label.clone()
                            aria-disabled=move || (current.get() + 1 >= page_count).to_string()
                            on:click=move |ev| {
                                ev.prevent_default();
                                go((current.get_untracked() + 1).min(page_count - 1));
                            }
                        >"›"</a>
                    </nav>
                })}
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_hex_colours_reach_the_style() {
        assert_eq!(safe_color(Some("#FFFFFF")).as_deref(), Some("#FFFFFF"));
        assert_eq!(safe_color(Some(" #1a1a1a ")).as_deref(), Some("#1a1a1a"));
        assert_eq!(safe_color(Some("red;background:url(x)")), None);
        assert_eq!(safe_color(Some("#12345")), None);
        assert_eq!(safe_color(None), None);
        assert_eq!(
            variant_class(ButtonVariant::Transparent),
            "button button--transparent"
        );
    }
}
