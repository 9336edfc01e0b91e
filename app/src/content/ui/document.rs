//! A crawlable document page: complete without scripts, with its canonical URL and the
//! hreflang alternates of the brand's sites (`SeoMeta`), a table of contents and
//! numbered sections.
use leptos::prelude::*;

use crate::content::docs::{self, DocSection};
use crate::content::rules::{with_brand, Document};
use crate::context::RequestCtx;
use crate::ui::SeoMeta;

#[component]
pub fn DocumentPage(doc: Document) -> impl IntoView {
    let ctx = RequestCtx::current();
    let brand = ctx.site().brand.name();
    let Some(d) = docs::document(ctx.lang(), doc) else {
        return ().into_any();
    };
    let title = with_brand(&d.title, brand);
    let toc = d
        .sections
        .iter()
        .map(|s| {
            let href = format!("#{}", section_anchor(&s.id));
            view! { <li><a href=href>{with_brand(&s.heading, brand)}</a></li> }
        })
        .collect_view();
    let sections = d
        .sections
        .into_iter()
        .map(|s| view! { <Section section=s brand /> })
        .collect_view();
    let related = Document::ALL
        .into_iter()
        .filter(|o| *o != doc)
        .map(|o| {
            let label = ctx.t(match o {
                Document::AboutUs => "menu.aboutus",
                Document::PrivacyPolicy => "page.privacypolicy",
                Document::GeneralConditions => "page.generalconditions",
            });
            view! { <li><a href=o.path()>{label}</a></li> }
        })
        .collect_view();
    view! {
        <SeoMeta title=title.clone() description=with_brand(&d.description, brand) path=doc.path().to_string() />
        <article class="content-doc" data-testid="content-doc" data-doc=doc.key() aria-labelledby="content-doc-title">
            <h1 id="content-doc-title">{title}</h1>
            <p class="content-doc__intro">{with_brand(&d.intro, brand)}</p>
            <nav class="content-doc__toc" aria-label=ctx.t("content.toc")>
                <h2 class="content-doc__toc-title">{ctx.t("content.toc")}</h2>
                <ol>{toc}</ol>
            </nav>
            {sections}
            <nav class="content-doc__related" aria-label=ctx.t("content.related")>
                <h2 class="content-doc__toc-title">{ctx.t("content.related")}</h2>
                <ul>{related}</ul>
            </nav>
        </article>
    }
    .into_any()
}

/// A section's element id: the document's own prefix keeps its ids apart from the page
/// chrome's (the consent banner's heading is `consent-title`, the privacy policy has a
/// `consent` section), so a page never has one id twice.
pub fn section_anchor(section_id: &str) -> String {
    format!("doc-{section_id}")
}

#[component]
fn Section(section: DocSection, brand: &'static str) -> impl IntoView {
    let anchor = section_anchor(&section.id);
    let heading_id = format!("{anchor}-title");
    let labelled_by = heading_id.clone();
    let table = (!section.table.is_empty()).then(|| {
        let mut rows = section.table.into_iter();
        let head = rows.next().unwrap_or_default();
        view! {
            // Focusable so keyboard users can scroll a table wider than a phone (axe
            // scrollable-region-focusable); named by the section's heading.
            <div class="content-doc__table-wrap" tabindex="0" role="region" aria-labelledby=labelled_by.clone()>
                <table class="content-doc__table">
                    <thead><tr>{head.into_iter().map(|c| view! { <th scope="col">{c}</th> }).collect_view()}</tr></thead>
                    <tbody>
                        {rows
                            .map(|r| {
                                let mut cells = r.into_iter();
                                let first = cells.next().unwrap_or_default();
                                view! {
                                    <tr>
                                        <th scope="row"><code>{first}</code></th>
                                        {cells.map(|c| view! { <td>{with_brand(&c, brand)}</td> }).collect_view()}
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
            </div>
        }
    });
    view! {
        <section class="content-doc__section" id=anchor aria-labelledby=labelled_by>
            <h2 id=heading_id>{with_brand(&section.heading, brand)}</h2>
            {section
                .paragraphs
                .iter()
                .map(|p| view! { <p>{with_brand(p, brand)}</p> })
                .collect_view()}
            {table}
        </section>
    }
}
