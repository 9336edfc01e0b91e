//! robots.txt and sitemap.xml for the requesting site.

use axum::extract::Request;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use sqlx::Row;

use app::context::RequestCtx;

use app::platform::db::Db;

fn ctx(req: &Request) -> RequestCtx {
    req.extensions()
        .get::<RequestCtx>()
        .cloned()
        .unwrap_or_default()
}

pub async fn robots(req: Request) -> Response {
    let ctx = ctx(&req);
    let sitemap = ctx.url_on(ctx.site_id, "/sitemap.xml");
    // Member pages are not listed: a crawler has no session, so they answer it with the
    // sign-in page, which is indexable. Search results decide per page (a plain query is
    // a landing page, its filtered and sorted variants say noindex), which robots.txt
    // cannot express; and a Disallow would hide that noindex from the crawler.
    let body = format!("User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: {sitemap}\n");
    ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], body).into_response()
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Crawlable pages (the documents among them), the site's landing pages, and the open-door
/// SEO catalogs of live sales. The pages every site has get their hreflang alternates;
/// landing pages and catalogs are the site's own.
pub async fn sitemap(db: Db, req: Request) -> Response {
    let ctx = ctx(&req);
    let site = ctx.site();
    let mut paths: Vec<String> = [
        "/",
        "/gr/aboutus",
        "/gr/registration",
        "/gr/portal",
        "/gr/authentication",
        "/registration/privacypolicy",
        "/registration/generalconditions",
        "/brandsplace",
        "/sales",
        "/navigation",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let shared = paths.len();
    for landing in app::content::store::landings(&db, site.site_id)
        .await
        .unwrap_or_default()
    {
        paths.push(format!("/l/{}", landing.slug));
    }
    let sql = format!(
        "SELECT s.id, s.slug, (SELECT MIN(u.id) FROM universes u WHERE u.sale_id = s.id AND u.parent_id IS NULL) AS u
           FROM sales s WHERE {}
          ORDER BY s.position, s.id",
        app::platform::sql::LIVE_SALE
    );
    let sales = sqlx::query(&sql)
        .bind(i64::from(site.site_id))
        .bind(app::platform::state::now())
        .fetch_all(&db.pool)
        .await
        .unwrap_or_default();
    for r in &sales {
        let (Ok(id), Ok(slug), Ok(Some(u))) = (
            r.try_get::<i64, _>("id"),
            r.try_get::<String, _>("slug"),
            r.try_get::<Option<i64>, _>("u"),
        ) else {
            continue;
        };
        paths.push(format!("/c/{slug}/{id}/{u}"));
    }
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n",
    );
    for (i, path) in paths.iter().enumerate() {
        xml.push_str(&format!(
            "  <url>\n    <loc>{}</loc>\n",
            xml_escape(&ctx.url_on(site.site_id, path))
        ));
        if i < shared {
            for s in site.siblings() {
                xml.push_str(&format!(
                    "    <xhtml:link rel=\"alternate\" hreflang=\"{}\" href=\"{}\"/>\n",
                    s.locale,
                    xml_escape(&ctx.url_on(s.site_id, path))
                ));
            }
        }
        xml.push_str("  </url>\n");
    }
    xml.push_str("</urlset>\n");
    (
        [(header::CONTENT_TYPE, "application/xml; charset=utf-8")],
        xml,
    )
        .into_response()
}
