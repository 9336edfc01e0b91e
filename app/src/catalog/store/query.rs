//! The content query: what a catalog page or call asks for, and the `$N` placeholder
//! builder. (`QueryBuilder<Any>` emits `?` placeholders, which PostgreSQL refuses: sqlx
//! issue #3000; hence `Params`.)

use crate::platform::sql::live_window;

/// Query of the catalog content call and of the catalog page.
#[derive(Clone, Debug, Default)]
pub struct ContentQuery {
    pub in_stock: bool,
    pub limit: i64,
    pub offset: i64,
    pub sort: Option<String>,
    pub search_term: Option<String>,
    /// The products of the sale whose name or brand holds `search_term` (set by `content`).
    pub matching_ids: Option<Vec<i64>>,
    pub brands: Vec<String>,
    pub colors: Vec<String>,
    pub sizes: Vec<String>,
    /// Price range in cents, both ends included.
    pub price_min: Option<i64>,
    pub price_max: Option<i64>,
    pub request_id: i64,
}

pub const MAX_LIMIT: i64 = 96;

/// Builds `$N` placeholders as values are pushed.
pub(super) struct Params {
    pub(super) values: Vec<ParamValue>,
}
pub(super) enum ParamValue {
    I(i64),
    T(String),
}
impl Params {
    pub(super) fn push_i(&mut self, v: i64) -> String {
        self.values.push(ParamValue::I(v));
        format!("${}", self.values.len())
    }
    pub(super) fn push_t(&mut self, v: String) -> String {
        self.values.push(ParamValue::T(v));
        format!("${}", self.values.len())
    }
    pub(super) fn list(&mut self, vs: &[String]) -> String {
        vs.iter()
            .map(|v| self.push_t(v.clone()))
            .collect::<Vec<_>>()
            .join(", ")
    }
    pub(super) fn bind<'q>(
        &'q self,
        sql: &'q str,
    ) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
        let mut q = sqlx::query(sql);
        for v in &self.values {
            q = match v {
                ParamValue::I(i) => q.bind(*i),
                ParamValue::T(t) => q.bind(t.as_str()),
            };
        }
        q
    }
}

pub(super) fn where_clause(
    p: &mut Params,
    site_id: u16,
    sale_id: i64,
    universe_id: i64,
    now: i64,
    q: &ContentQuery,
) -> String {
    let mut w = vec![
        format!("s.site_id = {}", p.push_i(i64::from(site_id))),
        format!("s.id = {}", p.push_i(sale_id)),
        live_window(&p.push_i(now)),
        crate::platform::sql::shown("pr"),
    ];
    if universe_id > 0 {
        let u = p.push_i(universe_id);
        w.push(format!("(pr.universe_id = {u} OR pr.universe_id IN (SELECT id FROM universes WHERE parent_id = {u}))"));
    }
    if !q.brands.is_empty() {
        w.push(format!("b.slug IN ({})", p.list(&q.brands)));
    }
    if !q.colors.is_empty() {
        w.push(format!("pr.color IN ({})", p.list(&q.colors)));
    }
    if !q.sizes.is_empty() {
        w.push(format!(
            "EXISTS (SELECT 1 FROM product_options o WHERE o.product_id = pr.id AND o.stock - o.held - o.sold > 0 AND o.label IN ({}))",
            p.list(&q.sizes)
        ));
    }
    if let Some(min) = q.price_min {
        w.push(format!("pr.price_cents >= {}", p.push_i(min)));
    }
    if let Some(max) = q.price_max {
        w.push(format!("pr.price_cents <= {}", p.push_i(max)));
    }
    if q.in_stock {
        w.push(
            "EXISTS (SELECT 1 FROM product_options o WHERE o.product_id = pr.id AND o.stock - o.held - o.sold > 0)"
                .into(),
        );
    }
    // A search term is matched by `content` (accent-folded, in Rust): here it only narrows
    // to the ids found.
    if let Some(ids) = &q.matching_ids {
        if ids.is_empty() {
            w.push("1 = 0".into());
        } else {
            let list = ids
                .iter()
                .map(|id| p.push_i(*id))
                .collect::<Vec<_>>()
                .join(", ");
            w.push(format!("pr.id IN ({list})"));
        }
    }
    w.join(" AND ")
}

pub(super) fn order_by(sort: Option<&str>) -> &'static str {
    match sort {
        Some("price_asc") => "pr.price_cents ASC, pr.id",
        Some("price_desc") => "pr.price_cents DESC, pr.id",
        Some("discount") => {
            "(pr.retail_price_cents - pr.price_cents) * 100 / pr.retail_price_cents DESC, pr.id"
        }
        _ => "pr.position, pr.id",
    }
}
