use leptos::prelude::*;

use crate::context::RequestCtx;
use crate::site::SITES;

/// Footer with legal links and the site switcher. The switcher links reload the page on
/// purpose (`rel="external"`): the server resolves the site and sets the cookie.
#[component]
pub fn Footer(path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let current = ctx.site_id;
    let brand = ctx.site().brand.name();
    view! {
        <footer class="footer">
            <nav class="footer__links" aria-label=ctx.t("footer.links.label")>
                <a href="/gr/aboutus">{ctx.t("menu.aboutus")}</a>
                <a href="/registration/privacypolicy">{ctx.t("page.privacypolicy")}</a>
                <a href="/helpform">{ctx.t("menu.help")}</a>
            </nav>
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
            <p class="footer__legal">{ctx.t_with("footer.copyright", &[("brand", brand)])}</p>
        </footer>
    }
}
