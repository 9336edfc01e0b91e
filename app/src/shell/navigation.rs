//! The open-door SEO variant "navigation" (spec 000 §1; the spec names no path):
//! `/navigation`, the header's categories with their universes and sales as one page, for
//! visitors and crawlers (listed in the sitemap).
use leptos::prelude::*;

use super::content::load_content;
use crate::context::RequestCtx;
use crate::home::ui::open_door::loading;
use crate::ui::SeoMeta;

#[component]
pub fn NavigationPage() -> impl IntoView {
    let ctx = RequestCtx::current();
    let brand = ctx.site().brand.name();
    let title = ctx.t("page.navigation");
    let description = ctx.t_with("open_door.navigation.description", &[("brand", brand)]);
    view! {
        <SeoMeta title=title.clone() description=description.clone() path="/navigation".to_string() />
        <section class="open-door" data-testid="navigation-page">
            <h1>{title}</h1>
            <p class="open-door__intro">{description}</p>
            <Suspense fallback=loading>
                {move || Suspend::new(async move {
                    let content = load_content(None).await;
                    let ctx = RequestCtx::current();
                    if content.categories.is_empty() {
                        return view! {
                            <p class="open-door__empty" data-testid="navigation-empty">{ctx.t("open_door.sales.empty")}</p>
                        }.into_any();
                    }
                    let sales_heading = ctx.t("open_door.navigation.sales");
                    view! {
                        <div class="open-door__categories">
                            {content.categories.into_iter().map(|c| {
                                let sales = (!c.sales.is_empty()).then(|| view! {
                                    <h3>{sales_heading.clone()}</h3>
                                    <ul data-testid="navigation-sales">
                                        {c.sales.into_iter().map(|s| view! { <li><a href=s.href>{s.name}</a></li> }).collect_view()}
                                    </ul>
                                });
                                view! {
                                    <section class="open-door__category" data-testid="navigation-category">
                                        <h2><a href=c.href>{c.label}</a></h2>
                                        <ul>{c.items.into_iter().map(|i| view! { <li><a href=i.href>{i.label}</a></li> }).collect_view()}</ul>
                                        {sales}
                                    </section>
                                }
                            }).collect_view()}
                        </div>
                        <p><a href="/sales" data-testid="navigation-all-sales">{ctx.t("open_door.navigation.all_sales")}</a></p>
                    }.into_any()
                })}
            </Suspense>
        </section>
    }
}
