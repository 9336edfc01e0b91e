use leptos::prelude::*;

use crate::content::api::fetch_footer;
use crate::content::model::Footer as FooterData;
use crate::context::RequestCtx;
use crate::site::SITES;

/// The footer: its sections and links from the footer call (spec 000 §7, the content
/// area's `footer` service, also served at `GET /api/content/v1/footer`), then the site
/// switcher. Rendered on the server; every link leads to a page that exists, and
/// members-only links are shown to members only. The switcher links reload the page on
/// purpose (`rel="external"`): the server resolves the site and sets the cookie.
#[component]
pub fn Footer(path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let current = ctx.site_id;
    let data = Resource::new(|| (), |_| fetch_footer());
    view! {
        <footer class="footer">
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(footer) => view! { <FooterSections footer /> }.into_any(),
                        // Without its call the footer keeps the links every page needs.
                        Err(_) => view! { <FallbackLinks /> }.into_any(),
                    }
                })}
            </Suspense>
            <OtherLanguages path=path.clone() />
            <nav class="footer__sites" aria-label=ctx.t("footer.sites.label") data-testid="site-switcher">
                <span class="footer__sites-title">{ctx.t("footer.sites.title")}</span>
                <ul>
                    {SITES
                        .iter()
                        .map(|s| {
                            let href = format!("{path}?site={}", s.site_id);
                            view! {
                                <li>
                                    <a
                                        href=href
                                        rel="external"
                                        hreflang=s.locale
                                        aria-current=(s.site_id == current).then_some("true")
                                    >
                                        {format!("{} · {} ({})", s.brand.name(), s.label, s.locale)}
                                    </a>
                                </li>
                            }
                        })
                        .collect_view()}
                </ul>
            </nav>
        </footer>
    }
}

/// The same page in the country's other languages (Belgium's two sites), each named in its
/// own language and marked as such for screen readers. Nothing where the country has one.
#[component]
fn OtherLanguages(path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let others: Vec<_> = ctx.site().other_languages().collect();
    (!others.is_empty()).then(|| {
        view! {
            <nav class="footer__languages" aria-label=ctx.t("footer.languages.label") data-testid="other-languages">
                <span class="footer__sites-title">{ctx.t("footer.languages.label")}</span>
                {others
                    .into_iter()
                    .map(|s| {
                        view! {
                            <a href=format!("{path}?site={}", s.site_id) rel="external" lang=s.lang hreflang=s.locale>
                                {crate::site::autonym(s.lang)}
                            </a>
                        }
                    })
                    .collect_view()}
            </nav>
        }
    })
}

#[component]
fn FooterSections(footer: FooterData) -> impl IntoView {
    let ctx = RequestCtx::current();
    view! {
        <nav class="footer__links" aria-label=ctx.t("footer.links.label") data-testid="footer-links">
            {footer
                .sections
                .into_iter()
                .map(|s| {
                    let heading = format!("footer-{}", s.id);
                    let labelled_by = heading.clone();
                    view! {
                        <section class="footer__section" data-section=s.id.clone() aria-labelledby=labelled_by>
                            <h2 class="footer__title" id=heading>{s.title}</h2>
                            <ul>
                                {s.links
                                    .into_iter()
                                    .map(|l| view! { <li><a href=l.href data-link=l.id>{l.label}</a></li> })
                                    .collect_view()}
                            </ul>
                        </section>
                    }
                })
                .collect_view()}
        </nav>
        <p class="footer__legal">{footer.copyright}</p>
    }
}

#[component]
fn FallbackLinks() -> impl IntoView {
    let ctx = RequestCtx::current();
    let brand = ctx.site().brand.name();
    view! {
        <nav class="footer__links" aria-label=ctx.t("footer.links.label")>
            <ul>
                <li><a href="/gr/aboutus">{ctx.t("menu.aboutus")}</a></li>
                <li><a href="/registration/generalconditions">{ctx.t("page.generalconditions")}</a></li>
                <li><a href="/registration/privacypolicy">{ctx.t("page.privacypolicy")}</a></li>
            </ul>
        </nav>
        <p class="footer__legal">{ctx.t_with("footer.copyright", &[("brand", brand)])}</p>
    }
}
