//! One home module: its title and its content by kind. Pedagogical modules have their own
//! file; text modules show their text; a group fed by the live sales shows the sale grid;
//! every other kind (group, highlight, section banner, sub-navigation category, universe,
//! deal) lays its banners out as tiles.
use leptos::prelude::*;

use crate::context::RequestCtx;
use crate::home::ui::pedagogical::Pedagogical;
use crate::home::ui::tiles::{BannerTile, SaleGrid};
use crate::model::home::HomeModule;

/// The CSS modifier of a module kind (`sectionBanner` → `section-banner`).
pub fn kind_class(kind: &str) -> String {
    let mut out = String::with_capacity(kind.len() + 4);
    for c in kind.chars() {
        if c.is_ascii_uppercase() {
            out.push('-');
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii_alphanumeric() || c == '-' {
            out.push(c);
        }
    }
    out
}

#[component]
pub fn Module(module: HomeModule, now: i64) -> impl IntoView {
    let sponsored = RequestCtx::current()
        .experiments
        .on(crate::model::experiments::Feature::SponsoredBanners);
    let module = crate::home::rules::with_sponsored(module, sponsored);
    if module.kind == "pedagogical" {
        return view! { <Pedagogical module now /> }.into_any();
    }
    let ctx = RequestCtx::current();
    // A module may ask for a theme of spec 000 §9 (its `theme` setting); else its home's.
    let theme = module
        .settings
        .theme
        .as_deref()
        .map(|t| crate::site::theme::Theme::for_home(ctx.site().palette, t))
        .filter(|t| t.is_special());
    let mut classes = format!("home-module home-module--{}", kind_class(&module.kind));
    if let Some(t) = theme {
        classes.push_str(" home-module--themed ");
        classes.push_str(t.css_class());
    }
    let anchor = format!("module-{}", module.name);
    let live_sales = module.settings.source.as_deref() == Some("liveSales");
    let title = if module.title.is_empty() && live_sales {
        ctx.t("home.sales.title")
    } else {
        module.title.clone()
    };
    let body = if live_sales {
        if module.sales.is_empty() {
            view! { <p class="empty">{ctx.t("home.sales.empty")}</p> }.into_any()
        } else {
            view! { <SaleGrid sales=module.sales.clone() now /> }.into_any()
        }
    } else if module.kind == "text" {
        let text = module.settings.text.clone().unwrap_or_default();
        view! { <p class="home-module__text">{text}</p> }.into_any()
    } else {
        view! {
            <ul class="tiles" data-testid="tiles">
                {module.banners.iter().cloned().map(|banner| view! { <BannerTile banner now /> }).collect_view()}
            </ul>
        }
        .into_any()
    };
    view! {
        <section class=classes id=anchor data-module=module.name.clone() data-kind=module.kind.clone()
            data-theme=theme.map(|t| t.name())>
            {(!title.is_empty()).then(|| view! { <h2 class="home__section-title">{title}</h2> })}
            {module.settings.subtitle.clone().filter(|_| module.kind != "text").map(|s| view! { <p class="home-module__subtitle">{s}</p> })}
            {body}
        </section>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    #[test]
    fn kind_classes() {
        assert_eq!(super::kind_class("sectionBanner"), "section-banner");
        assert_eq!(
            super::kind_class("subNavigationCategory"),
            "sub-navigation-category"
        );
        assert_eq!(super::kind_class("group"), "group");
        assert_eq!(super::kind_class("a\"b"), "ab");
    }
}
