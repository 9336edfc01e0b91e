//! Changing several products of a sale at once, from the products page: the operator ticks
//! products and chooses a universe, a tier or a delivery mode (any of them; the others stay
//! as each product has them). All of them change, or none: a product of another sale, an
//! unknown choice or an archived sale refuses the whole form. Each product's change is in
//! the audit log with its before and after.
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use leptos::prelude::*;

use app::platform::state::now;

use super::super::audit::{self, Entry};
use super::super::roles::Permission;
use super::super::session::{Operator, OperatorForm};
use super::super::{ui, PREFIX};
use super::rules::{DELIVERY_MODES, TIERS};
use super::{products, store};
use crate::state::AppCtx;

/// Products one form changes at most (a page lists 100).
const MAX_TICKED: usize = 500;

pub fn router() -> Router<Arc<AppCtx>> {
    Router::new().route(
        &format!("{PREFIX}/sales/{{id}}/products/bulk"),
        post(bulk_form),
    )
}

/// What the form asks: the ticked products and what to set (none: left as it is).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Change {
    pub products: Vec<i64>,
    pub universe_id: Option<i64>,
    pub tier: Option<&'static str>,
    pub delivery_mode: Option<i64>,
}

/// Reads the form's fields (`product` repeated), or the text key of what is wrong;
/// `universes` are the sale's.
pub fn change(fields: &[(String, String)], universes: &[i64]) -> Result<Change, &'static str> {
    let mut c = Change::default();
    for (key, value) in fields {
        let value = value.trim();
        match key.as_str() {
            "product" => c
                .products
                .push(value.parse().map_err(|_| "bulk.error.none")?),
            "universe" if !value.is_empty() => {
                let id = value.parse().ok().filter(|id| universes.contains(id));
                c.universe_id = Some(id.ok_or("bulk.error.choice")?);
            }
            "tier" if !value.is_empty() => {
                c.tier = Some(
                    TIERS
                        .iter()
                        .copied()
                        .find(|t| *t == value)
                        .ok_or("bulk.error.choice")?,
                );
            }
            "delivery_mode" if !value.is_empty() => {
                let mode = value.parse().ok().filter(|m| DELIVERY_MODES.contains(m));
                c.delivery_mode = Some(mode.ok_or("bulk.error.choice")?);
            }
            _ => {}
        }
    }
    c.products.sort_unstable();
    c.products.dedup();
    if c.products.is_empty() || c.products.len() > MAX_TICKED {
        return Err("bulk.error.none");
    }
    if c.universe_id.is_none() && c.tier.is_none() && c.delivery_mode.is_none() {
        return Err("bulk.error.nothing");
    }
    Ok(c)
}

/// The form above the products table; the products' ticks join it by `form="bulk"`.
pub fn section(op: &Operator, sale_id: i64, universes: &[(i64, String)]) -> impl IntoView {
    let t = |k: &str| op.t(k);
    let unchanged = t("bulk.unchanged");
    let select = |id: &'static str,
                  name: &'static str,
                  label: &'static str,
                  choices: Vec<(String, String)>| {
        let options = choices
            .into_iter()
            .map(|(value, text)| view! { <option value=value>{text}</option> })
            .collect_view();
        view! {
            <label for=id>{label}</label>
            <select id=id name=name><option value="">{unchanged}</option>{options}</select>
        }
    };
    let universes = universes
        .iter()
        .map(|(id, label)| (id.to_string(), label.clone()))
        .collect();
    let tiers = TIERS
        .iter()
        .map(|v| (v.to_string(), t(&format!("product.tier.{v}")).to_string()))
        .collect();
    let modes = DELIVERY_MODES
        .iter()
        .map(|v| {
            (
                v.to_string(),
                t(&format!("product.delivery.{v}")).to_string(),
            )
        })
        .collect();
    view! {
        <form id="bulk" method="post" action=format!("{PREFIX}/sales/{sale_id}/products/bulk")>
            {ui::xsrf_field(op)}
            <fieldset class="bo-inline">
                <legend>{t("bulk.legend")}</legend>
                {select("bulk-universe", "universe", t("product.universe"), universes)}
                {select("bulk-tier", "tier", t("product.tier"), tiers)}
                {select("bulk-delivery", "delivery_mode", t("product.delivery"), modes)}
                <button type="submit">{t("bulk.apply")}</button>
            </fieldset>
        </form>
    }
}

async fn bulk_form(
    State(app): State<Arc<AppCtx>>,
    Path(sale_id): Path<i64>,
    form: OperatorForm<Vec<(String, String)>>,
) -> Response {
    let op = &form.operator;
    if let Err(r) = op.require(Permission::EditCatalogue) {
        return r;
    }
    let db = &app.state.db;
    match store::by_id(db, sale_id).await {
        Ok(Some(s)) if s.archived_at.is_none() => {}
        Ok(Some(_)) => return refused(&app, op, sale_id, "sales.error.archived").await,
        Ok(None) => return ui::not_found(op),
        Err(e) => return ui::db_error(e),
    }
    let universes = match store::universes(db, sale_id).await {
        Ok(u) => u.iter().map(|u| u.id).collect::<Vec<_>>(),
        Err(e) => return ui::db_error(e),
    };
    let change = match change(&form.fields, &universes) {
        Ok(c) => c,
        Err(key) => return refused(&app, op, sale_id, key).await,
    };
    match apply(&app, op, sale_id, &change).await {
        Ok(true) => ui::see_other(&format!("{PREFIX}/sales/{sale_id}/products?done=bulk")),
        Ok(false) => refused(&app, op, sale_id, "bulk.error.other_sale").await,
        Err(e) => ui::db_error(e),
    }
}

async fn refused(app: &AppCtx, op: &Operator, sale_id: i64, key: &str) -> Response {
    let message = op.t(key).to_string();
    let status = StatusCode::UNPROCESSABLE_ENTITY;
    products::refused(app, op, sale_id, "bulk".into(), message, status).await
}

/// Applies the change to every ticked product in one transaction; false (nothing written)
/// when one of them is not the sale's.
async fn apply(app: &AppCtx, op: &Operator, sale_id: i64, c: &Change) -> Result<bool, sqlx::Error> {
    let at = now();
    let mut tx = app.state.db.begin().await?;
    for id in &c.products {
        let row: Option<(i64, String, i64, String, i64)> = sqlx::query_as(
            "SELECT sale_id, tier, delivery_mode, seller_kind, universe_id FROM products WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some((at_sale, tier, delivery_mode, seller_kind, universe_id)) = row else {
            tx.rollback().await?;
            return Ok(false);
        };
        if at_sale != sale_id {
            tx.rollback().await?;
            return Ok(false);
        }
        let placement = store::Placement {
            tier: c.tier.unwrap_or(tier.as_str()),
            delivery_mode: c.delivery_mode.unwrap_or(delivery_mode),
            seller_kind: &seller_kind,
            universe_id: c.universe_id.unwrap_or(universe_id),
        };
        store::set_placement(&mut tx, *id, &placement).await?;
        let entry = Entry {
            action: "bulk_edit",
            object_kind: "product",
            object_id: id.to_string(),
            summary: format!(
                "tier {tier} → {}, delivery {delivery_mode} → {}, universe {universe_id} → {}",
                placement.tier, placement.delivery_mode, placement.universe_id
            ),
        };
        audit::record(&mut tx, &op.actor(), entry, at).await?;
    }
    tx.commit().await?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn a_change_needs_ticked_products_and_something_to_set() {
        let universes = [10, 11];
        assert_eq!(
            change(&pairs(&[("tier", "PREMIUM")]), &universes),
            Err("bulk.error.none")
        );
        assert_eq!(
            change(&pairs(&[("product", "7"), ("tier", "")]), &universes),
            Err("bulk.error.nothing")
        );
        assert_eq!(
            change(&pairs(&[("product", "x"), ("tier", "SOON")]), &universes),
            Err("bulk.error.none")
        );
        assert_eq!(
            change(&pairs(&[("product", "7"), ("universe", "12")]), &universes),
            Err("bulk.error.choice"),
            "a universe of another sale"
        );
        assert_eq!(
            change(&pairs(&[("product", "7"), ("tier", "GOLD")]), &universes),
            Err("bulk.error.choice")
        );
        assert_eq!(
            change(
                &pairs(&[("product", "7"), ("delivery_mode", "9")]),
                &universes
            ),
            Err("bulk.error.choice")
        );
        assert_eq!(
            change(
                &pairs(&[
                    ("product", "8"),
                    ("product", "7"),
                    ("product", "8"),
                    ("universe", "11"),
                    ("delivery_mode", "2"),
                    ("tier", "")
                ]),
                &universes
            ),
            Ok(Change {
                products: vec![7, 8],
                universe_id: Some(11),
                tier: None,
                delivery_mode: Some(2),
            })
        );
    }
}
