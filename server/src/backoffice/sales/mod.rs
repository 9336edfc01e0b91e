//! Sales in the back office: the list (search, site, state, paging), a sale's settings
//! (create, edit, duplicate to a site, archive after a confirmation), and its products,
//! options and stock (`products.rs`). Every write is one transaction with its audit record;
//! a refused form comes back with each field's error and what was typed.
pub mod bulk;
pub mod homes;
pub mod pictures;
pub mod product_edit;
pub mod products;
pub mod rules;
pub mod stock;
pub mod store;
pub mod universes;

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use leptos::prelude::*;
use serde::Deserialize;

use app::catalog::rules::{sale_picture_url, SalePicture};
use app::platform::state::now;

use super::audit::{self, Entry};
use super::roles::Permission;
use super::session::{Operator, OperatorForm};
use super::{ui, PREFIX};
use crate::state::AppCtx;
use rules::{FieldErrors, SettingsFields, OFFER_TYPES};
use store::{Filter, SaleRow};

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new()
        .route(&format!("{PREFIX}/sales"), get(list_page))
        .route(
            &format!("{PREFIX}/sales/new"),
            get(new_page).post(create_form),
        )
        .route(&format!("{PREFIX}/sales/{{id}}"), get(edit_page))
        .route(&format!("{PREFIX}/sales/{{id}}/save"), post(save_form))
        .route(
            &format!("{PREFIX}/sales/{{id}}/duplicate"),
            post(duplicate_form),
        )
        .route(
            &format!("{PREFIX}/sales/{{id}}/archive"),
            post(archive_form),
        )
        .merge(products::router())
        .merge(bulk::router())
        .merge(homes::router())
        .merge(pictures::router())
        .merge(product_edit::router())
        .merge(universes::router())
}

fn state_of(s: &SaleRow, now: i64) -> &'static str {
    if s.archived_at.is_some() {
        "sales.state.archived"
    } else if s.starts_at > now {
        "sales.state.upcoming"
    } else if s.ends_at > now {
        "sales.state.live"
    } else {
        "sales.state.ended"
    }
}

pub fn site_label(site_id: i64) -> String {
    u16::try_from(site_id)
        .ok()
        .and_then(app::site::by_id)
        .map(|s| format!("{} ({})", s.label, s.site_id))
        .unwrap_or_else(|| site_id.to_string())
}

pub(super) fn site_options(selected: i64, any: Option<&'static str>) -> AnyView {
    let any = any.map(|label| view! { <option value="">{label}</option> });
    let sites = app::site::SITES
        .iter()
        .map(|s| {
            let id = i64::from(s.site_id);
            view! { <option value=id.to_string() selected=id == selected>{site_label(id)}</option> }
        })
        .collect_view();
    view! { {any}{sites} }.into_any()
}

pub async fn list_page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Query(f): Query<Filter>,
) -> Response {
    if let Err(r) = op.require(Permission::ReadCatalogue) {
        return r;
    }
    let at = now();
    let (rows, more) = match store::list(&app.state.db, &f, at).await {
        Ok(r) => r,
        Err(e) => return ui::db_error(e),
    };
    let t = |k: &str| op.t(k);
    let link = |p: i64| {
        format!(
            "{PREFIX}/sales?q={}&site={}&state={}&page={p}",
            app::routes::encode_query_value(&f.q),
            app::routes::encode_query_value(&f.site),
            app::routes::encode_query_value(&f.state)
        )
    };
    let previous =
        (f.page > 0).then(|| view! { <a href=link(f.page - 1)>{t("page.previous")}</a> });
    let next = more.then(|| view! { <a href=link(f.page + 1)>{t("page.next")}</a> });
    let empty = rows.is_empty().then(|| view! { <p>{t("sales.none")}</p> });
    let states = ["", "live", "upcoming", "ended", "archived"]
        .into_iter()
        .map(|s| {
            let label = if s.is_empty() {
                t("sales.state.any")
            } else {
                t(&format!("sales.state.{s}"))
            };
            view! { <option value=s selected=f.state == s>{label}</option> }
        })
        .collect_view();
    let new_link = op
        .can(Permission::EditCatalogue)
        .then(|| view! { <p class="bo-actions"><a class="bo-button" href=format!("{PREFIX}/sales/new")>{t("sales.new")}</a></p> });
    let rows = rows
        .into_iter()
        .map(|s| {
            view! {
                <tr>
                    <td class="num">{s.id}</td>
                    <td><a href=format!("{PREFIX}/sales/{}", s.id)>{s.name.clone()}</a></td>
                    <td>{site_label(s.site_id)}</td>
                    <td>{ui::when(s.starts_at)}</td>
                    <td>{ui::when(s.ends_at)}</td>
                    <td>{t(state_of(&s, at))}</td>
                </tr>
            }
        })
        .collect_view();
    let site: i64 = f.site.parse().unwrap_or(0);
    let body = view! {
        {new_link}
        <form method="get" class="bo-filters" role="search" data-enhance data-enhance-auto data-enhance-target="sales-list">
            {ui::field(t("sales.search"), "q", view! { <input id="q" name="q" type="search" value=f.q.clone() data-enhance-input /> }.into_any(), None)}
            {ui::field(t("sales.site"), "site", view! { <select id="site" name="site">{site_options(site, Some(t("sales.any_site")))}</select> }.into_any(), None)}
            {ui::field(t("sales.state"), "state", view! { <select id="state" name="state">{states}</select> }.into_any(), None)}
            <button type="submit">{t("audit.search")}</button>
        </form>
        <div data-enhance-region="sales-list">
        {empty}
        <div class="bo-table-wrap" tabindex="0">
            <table id="sales">
                <thead><tr>
                    <th scope="col" class="num">"#"</th><th scope="col">{t("sales.name")}</th><th scope="col">{t("sales.site")}</th>
                    <th scope="col">{t("sales.opens")}</th><th scope="col">{t("sales.closes")}</th><th scope="col">{t("sales.state")}</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <nav class="bo-paging" aria-label="pages">{previous}{next}</nav>
        </div>
    }
    .into_any();
    ui::page(
        StatusCode::OK,
        op.lang(),
        Some(&op),
        t("sales.title"),
        None,
        body,
    )
}

fn fields_of(s: &SaleRow) -> SettingsFields {
    SettingsFields {
        site: s.site_id.to_string(),
        name: s.name.clone(),
        offer_type: s.offer_type.clone(),
        starts_at: ui::datetime_value(s.starts_at),
        ends_at: ui::datetime_value(s.ends_at),
        description: s.description.clone(),
        legal_merchant: s.legal_merchant.clone(),
        legal_terms: s.legal_terms.clone(),
        products_listing_cgu: Some(s.products_listing_cgu.clone()),
        seo_title: Some(s.seo.title.clone()),
        seo_description: Some(s.seo.description.clone()),
        seo_footer: Some(s.seo.footer.clone()),
        with_quotation_price: s.with_quotation_price.then(|| "on".into()),
        with_map: s.with_map.then(|| "on".into()),
        kind: match s.campaign_kind.as_str() {
            "TRAVEL" => "trips".into(),
            "EMAIL" => "email".into(),
            _ => "shop".into(),
        },
        catalog_type: s.presentation.catalog_type.to_string(),
        banner_title: s.presentation.banner_title.clone(),
        banner_text: s.presentation.banner_text.clone(),
        insert_title: s.presentation.insert_title.clone(),
        insert_text: s.presentation.insert_text.clone(),
    }
}

/// The catalog page's layout and marketing messages (spec 000 §3 `catalog_type`,
/// `marketing`).
fn presentation_fields(op: &Operator, f: &SettingsFields, said: &ui::FieldMessages) -> AnyView {
    let t = |k: &str| op.t(k);
    let chosen: i64 = f.catalog_type.trim().parse().unwrap_or(1);
    let layouts = rules::CATALOG_TYPES
        .into_iter()
        .map(|(n, key)| view! { <option value=n.to_string() selected=chosen == n>{op.t(key)}</option> })
        .collect_view();
    let text = |name: &'static str, label: &'static str, value: &str, max: usize| {
        ui::field(
            t(label),
            name,
            view! { <input id=name name=name value=value.to_string() maxlength=max.to_string() aria-invalid=said.invalid(name) aria-describedby=said.described(name) /> }.into_any(),
            said.message(name),
        )
    };
    view! {
        <fieldset class="bo-fieldset">
            <legend>{t("sales.presentation")}</legend>
            {ui::field(t("sales.catalog_type"), "catalog_type", view! { <select id="catalog_type" name="catalog_type" aria-invalid=said.invalid("catalog_type") aria-describedby=said.described("catalog_type")>{layouts}</select> }.into_any(), said.message("catalog_type"))}
            {text("banner_title", "sales.banner_title", &f.banner_title, rules::MARKETING_TITLE_MAX)}
            {text("banner_text", "sales.banner_text", &f.banner_text, rules::MARKETING_TEXT_MAX)}
            {text("insert_title", "sales.insert_title", &f.insert_title, rules::MARKETING_TITLE_MAX)}
            {text("insert_text", "sales.insert_text", &f.insert_text, rules::MARKETING_TEXT_MAX)}
        </fieldset>
    }
    .into_any()
}

/// The settings form, for a new sale (`sale` none: with the site) or an existing one.
fn settings_form(
    op: &Operator,
    action: String,
    f: &SettingsFields,
    errors: &FieldErrors,
    new: bool,
) -> AnyView {
    let t = |k: &str| op.t(k);
    let said = ui::FieldMessages::new(op, errors);
    let err = |name: &str| said.message(name);
    let invalid = |name: &str| said.invalid(name);
    let described = |name: &str| said.described(name);
    let summary = said.summary();
    let site = new.then(|| {
        let selected: i64 = f.site.parse().unwrap_or(1);
        let (trips, email) = (f.kind == "trips", f.kind == "email");
        view! {
            {ui::field(t("sales.site"), "site", view! { <select id="site" name="site" aria-invalid=invalid("site") aria-describedby=described("site")>{site_options(selected, None)}</select> }.into_any(), err("site"))}
            {ui::field(t("sales.kind"), "kind", view! {
                <select id="kind" name="kind" aria-invalid=invalid("kind") aria-describedby=described("kind")>
                    <option value="shop" selected=!trips && !email>{t("sales.kind_shop")}</option>
                    <option value="email" selected=email>{t("sales.kind_email")}</option>
                    <option value="trips" selected=trips>{t("sales.kind_trips")}</option>
                </select>
            }.into_any(), err("kind"))}
        }
    });
    let offer_types = OFFER_TYPES
        .into_iter()
        .map(|o| view! { <option value=o selected=f.offer_type == o>{o}</option> })
        .collect_view();
    let submit = if new {
        t("sales.create")
    } else {
        t("sales.save")
    };
    view! {
        {summary}
        <form method="post" action=action data-enhance>
            {ui::xsrf_field(op)}
            {site}
            {ui::field(t("sales.name"), "name", view! { <input id="name" name="name" required maxlength="200" value=f.name.clone() aria-invalid=invalid("name") aria-describedby=described("name") /> }.into_any(), err("name"))}
            {ui::field(t("sales.offer_type"), "offer_type", view! { <select id="offer_type" name="offer_type" aria-invalid=invalid("offer_type") aria-describedby=described("offer_type")>{offer_types}</select> }.into_any(), err("offer_type"))}
            {ui::field(t("sales.opens"), "starts_at", view! { <input id="starts_at" name="starts_at" type="datetime-local" required value=f.starts_at.clone() aria-invalid=invalid("starts_at") aria-describedby=described("starts_at") /> }.into_any(), err("starts_at"))}
            {ui::field(t("sales.closes"), "ends_at", view! { <input id="ends_at" name="ends_at" type="datetime-local" required value=f.ends_at.clone() aria-invalid=invalid("ends_at") aria-describedby=described("ends_at") /> }.into_any(), err("ends_at"))}
            {ui::field(t("sales.description"), "description", view! { <textarea id="description" name="description" rows="4">{f.description.clone()}</textarea> }.into_any(), None)}
            {ui::field(t("sales.legal_merchant"), "legal_merchant", view! { <input id="legal_merchant" name="legal_merchant" value=f.legal_merchant.clone() /> }.into_any(), None)}
            {ui::field(t("sales.legal_terms"), "legal_terms", view! { <textarea id="legal_terms" name="legal_terms" rows="3">{f.legal_terms.clone()}</textarea> }.into_any(), None)}
            {ui::field(t("sales.products_listing_cgu"), "products_listing_cgu", view! { <textarea id="products_listing_cgu" name="products_listing_cgu" rows="4" aria-describedby="products_listing_cgu-hint">{f.products_listing_cgu.clone().unwrap_or_default()}</textarea><p class="bo-hint" id="products_listing_cgu-hint">{t("sales.products_listing_cgu_hint")}</p> }.into_any(), None)}
{ui::field(t("sales.seo_title"), "seo_title", view! { <input id="seo_title" name="seo_title" maxlength="200" value=f.seo_title.clone().unwrap_or_default() aria-invalid=invalid("seo_title") aria-describedby=described("seo_title") /> }.into_any(), err("seo_title"))}
            {ui::field(t("sales.seo_description"), "seo_description", view! { <textarea id="seo_description" name="seo_description" rows="2" aria-invalid=invalid("seo_description") aria-describedby=described("seo_description")>{f.seo_description.clone().unwrap_or_default()}</textarea> }.into_any(), err("seo_description"))}
            {ui::field(t("sales.seo_footer"), "seo_footer", view! { <textarea id="seo_footer" name="seo_footer" rows="4" aria-describedby="seo_footer-hint">{f.seo_footer.clone().unwrap_or_default()}</textarea><p class="bo-hint" id="seo_footer-hint">{t("sales.seo_hint")}</p> }.into_any(), None)}
                        <p class="bo-check"><input type="checkbox" id="with_quotation_price" name="with_quotation_price" checked=f.with_quotation_price.is_some() /><label for="with_quotation_price">{t("sales.with_quotation_price")}</label></p>
            <p class="bo-check"><input type="checkbox" id="with_map" name="with_map" checked=f.with_map.is_some() /><label for="with_map">{t("sales.with_map")}</label></p>
            {presentation_fields(op, f, &said)}
            <button type="submit">{submit}</button>
        </form>
    }
    .into_any()
}

fn new_view(
    op: &Operator,
    f: &SettingsFields,
    errors: &FieldErrors,
    status: StatusCode,
) -> Response {
    let body = settings_form(op, format!("{PREFIX}/sales/new"), f, errors, true);
    ui::page(status, op.lang(), Some(op), op.t("sales.new"), None, body)
}

pub async fn new_page(op: Operator) -> Response {
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    let at = now();
    let f = SettingsFields {
        site: "1".into(),
        offer_type: "FlashSale".into(),
        catalog_type: "1".into(),
        starts_at: ui::datetime_value(at - at.rem_euclid(3600) + 86_400),
        ends_at: ui::datetime_value(at - at.rem_euclid(3600) + 4 * 86_400),
        ..Default::default()
    };
    new_view(&op, &f, &Vec::new(), StatusCode::OK)
}

pub async fn create_form(
    State(app): State<Arc<AppCtx>>,
    form: OperatorForm<SettingsFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    let f = &form.fields;
    let site = rules::site(&f.site);
    let kind = rules::kind(&f.kind);
    let settings = rules::settings(f);
    let (Some(site), Some(kind), Ok(settings)) = (site, kind, settings.clone()) else {
        let mut errors = settings.err().unwrap_or_default();
        if kind.is_none() {
            errors.insert(0, ("kind", "sales.error.kind"));
        }
        if site.is_none() {
            errors.insert(0, ("site", "sales.error.site"));
        }
        return new_view(op, f, &errors, StatusCode::UNPROCESSABLE_ENTITY);
    };
    let at = now();
    let result: Result<i64, sqlx::Error> = async {
        let mut tx = app.state.db.begin().await?;
        let id = store::insert(
            &mut tx,
            &store::NewSale {
                id: None,
                site_id: site,
                campaign_kind: kind,
                universe_title: Some("All"),
            },
            &settings,
        )
        .await?;
        let entry = Entry {
            action: "create",
            object_kind: "sale",
            object_id: id.to_string(),
            summary: format!(
                "site {site} ({kind}): {:?}, {} → {}",
                settings.name,
                ui::when(settings.starts_at),
                ui::when(settings.ends_at)
            ),
        };
        audit::record(&mut tx, &op.actor(), entry, at).await?;
        tx.commit().await?;
        Ok(id)
    }
    .await;
    match result {
        // Members see it within the home cache's few seconds (`home::store::CACHE_SECS`).
        Ok(id) => ui::see_other(&format!("{PREFIX}/sales/{id}?done=created")),
        Err(e) => ui::db_error(e),
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct EditQuery {
    done: String,
    confirm: String,
}

/// What a sale's page says besides the sale: a notice after a write, the archive
/// confirmation, or a refused banner or logo upload (its form's key and the message).
#[derive(Default)]
struct Said {
    notice: Option<String>,
    confirm_archive: bool,
    picture_refusal: Option<(String, String)>,
}

fn edit_view(
    op: &Operator,
    sale: &SaleRow,
    f: &SettingsFields,
    errors: &FieldErrors,
    said: Said,
    status: StatusCode,
) -> Response {
    let Said {
        notice,
        confirm_archive,
        picture_refusal,
    } = said;
    let t = |k: &str| op.t(k);
    let at = now();
    let base = format!("{PREFIX}/sales/{}", sale.id);
    let pictures = editable_pictures(op, sale, picture_refusal);
    let facts = view! {
        <p>{format!("#{} · {} · {}", sale.id, site_label(sale.site_id), t(state_of(sale, at)))}</p>
        <p class="bo-actions">
            <a href=format!("{base}/products")>{t("sales.products")}</a>
            <a href=format!("{base}/homes")>{t("homes.title")}</a>
            {op.can(Permission::WatchSaleOpening).then(|| view! { <a href=format!("{base}/dashboard")>{t("sales.dashboard")}</a> })}
        </p>
    };
    let editable = op.can(Permission::EditCatalogue) && sale.archived_at.is_none();
    let form = editable.then(|| settings_form(op, format!("{base}/save"), f, errors, false));
    let read_only = (!editable).then(|| {
        view! {
            <dl>
                <dt>{t("sales.opens")}</dt><dd>{ui::when(sale.starts_at)}</dd>
                <dt>{t("sales.closes")}</dt><dd>{ui::when(sale.ends_at)}</dd>
                <dt>{t("sales.offer_type")}</dt><dd>{sale.offer_type.clone()}</dd>
                <dt>{t("sales.description")}</dt><dd>{sale.description.clone()}</dd>
            </dl>
        }
    });
    let actions = op.can(Permission::EditCatalogue).then(|| {
        let archive = sale.archived_at.is_none().then(|| view! { <a class="bo-button" href=format!("{base}?confirm=archive")>{t("sales.archive")}</a> });
        view! {
            <h2>{t("sales.duplicate")}</h2>
            <form method="post" action=format!("{base}/duplicate") class="bo-inline">
                {ui::xsrf_field(op)}
                <label for="duplicate-site">{t("sales.duplicate_to")}</label>
                <select id="duplicate-site" name="site">{site_options(sale.site_id, None)}</select>
                <button type="submit" class="bo-secondary">{t("sales.duplicate")}</button>
            </form>
            <div class="bo-actions">{archive}</div>
        }
    });
    let preview = view! {
        <h2>{t("preview.title")}</h2>
        <p>{t("preview.help")}</p>
        <form method="post" action=format!("{base}/preview") class="bo-inline">
            {ui::xsrf_field(op)}
            <label for="preview-at">{t("preview.at")}</label>
            <input id="preview-at" name="at" type="datetime-local" required value=ui::datetime_value(sale.starts_at) />
            <button type="submit" name="page" value="home">{t("preview.home")}</button>
            <button type="submit" name="page" value="catalog" class="bo-secondary">{t("preview.catalog")}</button>
        </form>
    };
    let dialog = (confirm_archive && sale.archived_at.is_none()).then(|| {
        view! {
            <dialog open data-enhance-modal aria-labelledby="archive-title">
                <h2 id="archive-title">{t("sales.archive")}</h2>
                <p>{t("sales.archive_confirm")}</p>
                <form method="post" action=format!("{base}/archive")>
                    {ui::xsrf_field(op)}
                    <button type="submit">{t("sales.archive")}</button>
                </form>
                <p><a href=base.clone()>{t("page.previous")}</a></p>
            </dialog>
        }
    });
    let body = view! { {facts}{form}{read_only}{pictures}{preview}{actions}{dialog} }.into_any();
    ui::page(status, op.lang(), Some(op), &sale.name, notice, body)
}

/// The banner and logo as the shop shows them, and their upload forms (`pictures`) for an
/// operator who edits the catalogue; a refused upload says why beside its form.
fn editable_pictures(op: &Operator, sale: &SaleRow, refusal: Option<(String, String)>) -> AnyView {
    let t = |k: &str| op.t(k);
    let can_edit = op.can(Permission::EditCatalogue) && sale.archived_at.is_none();
    let pictures = [
        (
            SalePicture::Banner,
            sale.banner_image_id,
            "sales.banner",
            240,
        ),
        (SalePicture::Logo, sale.logo_image_id, "sales.logo", 48),
    ];
    let items = pictures
        .into_iter()
        .map(|(kind, uploaded, label, width)| {
            let key = format!("sale-{}", kind.as_str());
            let error = refusal
                .as_ref()
                .filter(|(form, _)| *form == key)
                .map(|(_, message)| view! { <p class="bo-error" role="alert" id=format!("{key}-error")>{message.clone()}</p> });
            let described = error.is_some().then(|| format!("{key}-error"));
            let form = can_edit.then(|| view! {
                <form method="post" enctype="multipart/form-data" action=format!("{PREFIX}/sales/{}/{}", sale.id, kind.as_str()) class="bo-inline">
                    {ui::xsrf_field(op)}
                    <label for=key.clone()>{t(label)}</label>
                    <input id=key.clone() name="picture" type="file" accept="image/jpeg,image/png,image/webp" required aria-describedby=described />
                    <button type="submit" class="bo-secondary">{t("pictures.send")}</button>
                </form>
            });
            view! {
                <figure data-sale-picture=kind.as_str() data-uploaded=uploaded.map(|id| id.to_string())>
                    <img src=sale_picture_url(sale.id, kind, uploaded) alt="" width=width />
                    <figcaption>{t(label)}{uploaded.is_none().then(|| format!(" · {}", t("sales.picture_drawn")))}</figcaption>
                </figure>
                {error}
                {form}
            }
        })
        .collect::<Vec<_>>();
    view! { <h2>{t("sales.pictures")}</h2>{items} }.into_any()
}

/// The sale's page with a refused banner or logo upload (`form` is `sale-banner` or
/// `sale-logo`).
pub async fn refused(
    app: &AppCtx,
    op: &Operator,
    sale_id: i64,
    form: String,
    message: String,
    status: StatusCode,
) -> Response {
    let sale = match load(app, op, sale_id).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    edit_view(
        op,
        &sale,
        &fields_of(&sale),
        &Vec::new(),
        Said {
            picture_refusal: Some((form, message)),
            ..Said::default()
        },
        status,
    )
}

async fn load(app: &AppCtx, op: &Operator, id: i64) -> Result<SaleRow, Response> {
    match store::by_id(&app.state.db, id).await {
        Ok(Some(s)) => Ok(s),
        Ok(None) => Err(ui::not_found(op)),
        Err(e) => Err(ui::db_error(e)),
    }
}

pub async fn edit_page(
    State(app): State<Arc<AppCtx>>,
    op: Operator,
    Path(id): Path<i64>,
    Query(q): Query<EditQuery>,
) -> Response {
    if let Err(r) = op.require(Permission::ReadCatalogue) {
        return r;
    }
    let sale = match load(&app, &op, id).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let notice = match q.done.as_str() {
        "created" => Some(op.t("sales.created")),
        "saved" => Some(op.t("sales.saved")),
        "duplicated" => Some(op.t("sales.duplicated")),
        "archived" => Some(op.t("sales.archived")),
        "picture" => Some(op.t("pictures.added")),
        _ => None,
    }
    .map(str::to_string);
    edit_view(
        &op,
        &sale,
        &fields_of(&sale),
        &Vec::new(),
        Said {
            notice,
            confirm_archive: q.confirm == "archive",
            ..Said::default()
        },
        StatusCode::OK,
    )
}

fn summary_of(before: &SaleRow, after: &store::Settings) -> String {
    [
        audit::change("name", &before.name, &after.name),
        audit::change("offer_type", &before.offer_type, &after.offer_type),
        audit::change(
            "starts_at",
            ui::when(before.starts_at),
            ui::when(after.starts_at),
        ),
        audit::change("ends_at", ui::when(before.ends_at), ui::when(after.ends_at)),
        audit::change("description", &before.description, &after.description)
            .map(|_| "description changed".into()),
        audit::change(
            "legal_merchant",
            &before.legal_merchant,
            &after.legal_merchant,
        ),
        audit::change("legal_terms", &before.legal_terms, &after.legal_terms)
            .map(|_| "legal terms changed".into()),
        after.products_listing_cgu.as_ref().and_then(|c| {
            audit::change("products_listing_cgu", &before.products_listing_cgu, c)
                .map(|_| "listing conditions changed".into())
        }),
        after
            .seo
            .as_ref()
            .filter(|seo| **seo != before.seo)
            .map(|_| "SEO settings changed".into()),
        audit::change(
            "withQuotationPrice",
            before.with_quotation_price,
            after.with_quotation_price,
        ),
        audit::change("withMap", before.with_map, after.with_map),
        after.presentation.as_ref().and_then(|p| {
            audit::change(
                "catalog_type",
                before.presentation.catalog_type,
                p.catalog_type,
            )
        }),
        after
            .presentation
            .as_ref()
            .filter(|p| {
                let b = &before.presentation;
                (
                    &b.banner_title,
                    &b.banner_text,
                    &b.insert_title,
                    &b.insert_text,
                ) != (
                    &p.banner_title,
                    &p.banner_text,
                    &p.insert_title,
                    &p.insert_text,
                )
            })
            .map(|_| "marketing changed".into()),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join("; ")
}

pub async fn save_form(
    State(app): State<Arc<AppCtx>>,
    Path(id): Path<i64>,
    form: OperatorForm<SettingsFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    let sale = match load(&app, op, id).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    if sale.archived_at.is_some() {
        return ui::message_page(
            op.lang(),
            Some(op),
            StatusCode::CONFLICT,
            op.t("sales.error.archived"),
        );
    }
    let settings = match rules::settings(&form.fields) {
        Ok(s) => s,
        Err(errors) => {
            return edit_view(
                op,
                &sale,
                &form.fields,
                &errors,
                Said::default(),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
        }
    };
    let at = now();
    let result: Result<u64, sqlx::Error> = async {
        let mut tx = app.state.db.begin().await?;
        // Read again inside the write: the summary is of what this write changed.
        let before = store::by_id_tx(&mut tx, id).await?.unwrap_or(sale.clone());
        let n = store::update(&mut tx, id, &settings).await?;
        if n == 1 {
            let summary = summary_of(&before, &settings);
            let entry = Entry {
                action: "update",
                object_kind: "sale",
                object_id: id.to_string(),
                summary: if summary.is_empty() {
                    "no change".into()
                } else {
                    summary
                },
            };
            audit::record(&mut tx, &op.actor(), entry, at).await?;
        }
        tx.commit().await?;
        Ok(n)
    }
    .await;
    match result {
        Ok(1) => ui::see_other(&format!("{PREFIX}/sales/{id}?done=saved")),
        Ok(_) => ui::message_page(
            op.lang(),
            Some(op),
            StatusCode::CONFLICT,
            op.t("sales.error.archived"),
        ),
        Err(e) => ui::db_error(e),
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct DuplicateFields {
    site: String,
}

pub async fn duplicate_form(
    State(app): State<Arc<AppCtx>>,
    Path(id): Path<i64>,
    form: OperatorForm<DuplicateFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    let sale = match load(&app, op, id).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let Some(site) = rules::site(&form.fields.site) else {
        return ui::message_page(
            op.lang(),
            Some(op),
            StatusCode::UNPROCESSABLE_ENTITY,
            op.t("sales.error.site"),
        );
    };
    let at = now();
    let result: Result<i64, sqlx::Error> = async {
        let mut tx = app.state.db.begin().await?;
        let new = store::duplicate(&mut tx, &sale, site, at).await?;
        let entry = Entry {
            action: "duplicate",
            object_kind: "sale",
            object_id: new.to_string(),
            summary: format!("copy of sale {id} on site {site}"),
        };
        audit::record(&mut tx, &op.actor(), entry, at).await?;
        tx.commit().await?;
        Ok(new)
    }
    .await;
    match result {
        Ok(new) => ui::see_other(&format!("{PREFIX}/sales/{new}?done=duplicated")),
        Err(e) => ui::db_error(e),
    }
}

#[derive(Deserialize, Default)]
pub struct NoFields {}

pub async fn archive_form(
    State(app): State<Arc<AppCtx>>,
    Path(id): Path<i64>,
    form: OperatorForm<NoFields>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    let sale = match load(&app, op, id).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let at = now();
    let result: Result<u64, sqlx::Error> = async {
        let mut tx = app.state.db.begin().await?;
        let n = store::archive(&mut tx, id, at).await?;
        if n == 1 {
            let entry = Entry {
                action: "archive",
                object_kind: "sale",
                object_id: id.to_string(),
                summary: format!(
                    "closed at {} (was {})",
                    ui::when(at.min(sale.ends_at)),
                    ui::when(sale.ends_at)
                ),
            };
            audit::record(&mut tx, &op.actor(), entry, at).await?;
        }
        tx.commit().await?;
        Ok(n)
    }
    .await;
    match result {
        Ok(_) => ui::see_other(&format!("{PREFIX}/sales/{id}?done=archived")),
        Err(e) => ui::db_error(e),
    }
}
