//! A feed's product: its name, prices and data sheet (the product form's rules), brand,
//! listing (universe, tier, delivery, seller, item type), picture and trip, and its options
//! with their own prices and stock (changed through the guarded write).
use sqlx::{Any, Row, Transaction};

use super::super::sales::pictures::Target;
use super::super::sales::rules;
use super::super::sales::stock::MAX_CHANGE;
use super::super::sales::store::{self as sales, NewProduct};
use super::super::text;
use super::apply::{apply_picture, Ctx};
use super::refs::{find, remember_new, Found, Ids};
use super::sale::or_default;
use super::{FeedOption, FeedProduct};

async fn brand_id(
    tx: &mut Transaction<'static, Any>,
    ctx: &mut Ctx<'_>,
    name: &str,
) -> Result<Option<i64>, sqlx::Error> {
    let name = name.trim();
    if name.is_empty() {
        return Ok(None);
    }
    let key = name.to_lowercase();
    if let Some(id) = ctx.brands.get(&key) {
        return Ok(Some(*id));
    }
    let found: Option<i64> =
        sqlx::query_scalar("SELECT MIN(id) FROM brands WHERE LOWER(name) = $1")
            .bind(&key)
            .fetch_one(&mut **tx)
            .await?;
    let id = match found {
        Some(id) => id,
        None => {
            let given = match ctx.ids {
                Ids::FromRefs { brands } => brands
                    .iter()
                    .position(|b| b.eq_ignore_ascii_case(name))
                    .map(|i| i as i64 + 1),
                Ids::Next => None,
            };
            let id = match given {
                Some(id) => id,
                None => sales::next_id(tx, "brands", 1).await?,
            };
            sqlx::query("INSERT INTO brands (id, name, slug) VALUES ($1, $2, $3)")
                .bind(id)
                .bind(name)
                .bind(app::text::slug::slug(name))
                .execute(&mut **tx)
                .await?;
            id
        }
    };
    ctx.brands.insert(key, id);
    Ok(Some(id))
}

pub(super) async fn apply_product(
    tx: &mut Transaction<'static, Any>,
    ctx: &mut Ctx<'_>,
    path: &str,
    sale_id: i64,
    p: &FeedProduct,
) -> Result<(), sqlx::Error> {
    let name: String = p.name.trim().chars().filter(|c| !c.is_control()).collect();
    let mut ok = true;
    if name.is_empty() || name.chars().count() > 200 {
        ctx.err(
            &format!("{path}.name"),
            text::t(ctx.lang, "sales.error.product_name"),
        );
        ok = false;
    }
    let (price, retail) = (rules::cents(&p.price), rules::cents(&p.retail_price));
    if price.is_none() {
        ctx.err(
            &format!("{path}.price"),
            text::t(ctx.lang, "sales.error.price"),
        );
        ok = false;
    }
    if retail.is_none() {
        ctx.err(
            &format!("{path}.retail_price"),
            text::t(ctx.lang, "sales.error.price"),
        );
        ok = false;
    }
    if let (Some(pr), Some(r)) = (price, retail) {
        if r < pr {
            ctx.err(
                &format!("{path}.retail_price"),
                text::t(ctx.lang, "sales.error.retail_below"),
            );
            ok = false;
        }
    }
    let listing = listing(ctx, path, p);
    ok &= listing.is_some();
    // Options' own prices are checked against the product's once those are right (else
    // that is the error).
    let valid_prices = price.zip(retail).filter(|(p, r)| r >= p);
    for (k, o) in p.options.iter().enumerate() {
        if o.label.trim().is_empty() || o.label.trim().chars().count() > 40 {
            ctx.err(
                &format!("{path}.options[{k}].label"),
                text::t(ctx.lang, "sales.error.option_label"),
            );
            ok = false;
        }
        if !(0..=MAX_CHANGE).contains(&o.stock) {
            ctx.err(
                &format!("{path}.options[{k}].stock"),
                text::t(ctx.lang, "sales.error.option_stock"),
            );
            ok = false;
        }
        if let Some(product_prices) = valid_prices {
            if let Err(key) = option_prices(o, product_prices) {
                ctx.err(
                    &format!("{path}.options[{k}].price"),
                    text::t(ctx.lang, key),
                );
                ok = false;
            }
        }
    }
    let Some(listing) = listing.filter(|_| ok) else {
        return Ok(());
    };
    let product = NewProduct {
        name,
        brand_id: brand_id(tx, ctx, &p.brand).await?,
        color: p.color.trim().chars().take(40).collect(),
        description_html: app::text::sanitize::data_sheet(&p.data_sheet),
        price_cents: price.unwrap_or_default(),
        retail_price_cents: retail.unwrap_or_default(),
    };
    let kept = matches!(ctx.ids, Ids::FromRefs { .. });
    let product_id = match find(tx, ctx.ids, "product", &p.reference).await? {
        Found::Kept(id) => {
            ctx.out.unchanged += 1;
            id
        }
        Found::Known(id) => {
            let row = sqlx::query("SELECT sale_id, name, brand_id, color, description_html, price_cents, retail_price_cents, tier, delivery_mode, seller_kind, universe_id, item_type FROM products WHERE id = $1")
                .bind(id)
                .fetch_one(&mut **tx)
                .await?;
            if row.try_get::<i64, _>("sale_id")? != sale_id {
                ctx.err(
                    path,
                    format!("the product {:?} belongs to another sale", p.reference),
                );
                return Ok(());
            }
            let same = row.try_get::<String, _>("name")? == product.name
                && row.try_get::<Option<i64>, _>("brand_id")? == product.brand_id
                && row.try_get::<String, _>("color")? == product.color
                && row.try_get::<String, _>("description_html")? == product.description_html
                && row.try_get::<i64, _>("price_cents")? == product.price_cents
                && row.try_get::<i64, _>("retail_price_cents")? == product.retail_price_cents;
            let listed = row.try_get::<String, _>("tier")? == listing.tier
                && row.try_get::<i64, _>("delivery_mode")? == listing.delivery_mode
                && row.try_get::<String, _>("seller_kind")? == listing.seller_kind
                && listing
                    .universe_id
                    .is_none_or(|u| row.try_get::<i64, _>("universe_id").ok() == Some(u))
                && row.try_get::<i64, _>("item_type")? == listing.item_type;
            if !same {
                sales::update_product(tx, id, &product).await?;
            }
            if !listed {
                set_listing(tx, id, &listing).await?;
            }
            if same && listed {
                ctx.out.unchanged += 1;
            } else {
                ctx.out.updated.products += 1;
            }
            id
        }
        Found::New(given) => {
            let id = sales::insert_product(tx, given, sale_id, &product).await?;
            set_listing(tx, id, &listing).await?;
            remember_new(tx, ctx.ids, "product", &p.reference, id).await?;
            ctx.out.created.products += 1;
            id
        }
    };
    let picture = p.picture.as_deref();
    apply_picture(
        tx,
        ctx,
        Target::Product(product_id),
        sale_id,
        Some(product_id),
        picture,
    )
    .await?;
    if let Some(trip) = &p.travel {
        let at = (product_id, product.price_cents);
        super::travel::apply_trip(tx, ctx, &format!("{path}.travel"), at, trip, kept).await?;
    }
    for (k, o) in p.options.iter().enumerate() {
        let prices =
            option_prices(o, (product.price_cents, product.retail_price_cents)).unwrap_or_default();
        let option = apply_option(
            tx,
            ctx,
            &format!("{path}.options[{k}]"),
            product_id,
            o,
            prices,
        )
        .await?;
        if let Some(option) = option {
            let picture = o.picture.as_deref();
            apply_picture(
                tx,
                ctx,
                Target::Option(option),
                sale_id,
                Some(product_id),
                picture,
            )
            .await?;
        }
    }
    Ok(())
}

/// How a product is listed: its tier, delivery, seller, universe and item type.
struct Listing {
    tier: String,
    delivery_mode: i64,
    seller_kind: String,
    /// None: where it is (a new product: the sale's first universe).
    universe_id: Option<i64>,
    item_type: i64,
}

/// Item types a product may have in lists (spec 000 §3): an item, a carousel, an ad.
const ITEM_TYPES: [i64; 3] = [1, 7, 10];

/// The product's listing, checked with the product page's lists (errors said).
fn listing(ctx: &mut Ctx<'_>, path: &str, p: &FeedProduct) -> Option<Listing> {
    let mut ok = true;
    let mut refuse = |ctx: &mut Ctx<'_>, field: &str, key: &str| {
        ctx.err(&format!("{path}.{field}"), text::t(ctx.lang, key));
        ok = false;
    };
    let tier = or_default(&p.tier, rules::TIERS[0]);
    if !rules::TIERS.contains(&tier) {
        refuse(ctx, "tier", "import.choice");
    }
    if !rules::DELIVERY_MODES.contains(&p.delivery_mode) {
        refuse(ctx, "delivery_mode", "import.choice");
    }
    let seller_kind = or_default(&p.seller_kind, rules::SELLER_KINDS[0]);
    if !rules::SELLER_KINDS.contains(&seller_kind) {
        refuse(ctx, "seller_kind", "import.choice");
    }
    let item_type = p.item_type.unwrap_or(ITEM_TYPES[0]);
    if !ITEM_TYPES.contains(&item_type) {
        refuse(ctx, "item_type", "import.choice");
    }
    let universe_id = match &p.universe {
        None => None,
        Some(r) => {
            let id = ctx.universes.get(r).copied();
            if id.is_none() {
                refuse(ctx, "universe", "import.universe");
            }
            id
        }
    };
    ok.then(|| Listing {
        tier: tier.to_string(),
        delivery_mode: p.delivery_mode,
        seller_kind: seller_kind.to_string(),
        universe_id,
        item_type,
    })
}

async fn set_listing(
    tx: &mut Transaction<'static, Any>,
    id: i64,
    l: &Listing,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE products SET tier = $2, delivery_mode = $3, seller_kind = $4,
                universe_id = COALESCE($5, universe_id), item_type = $6 WHERE id = $1",
    )
    .bind(id)
    .bind(&l.tier)
    .bind(l.delivery_mode)
    .bind(&l.seller_kind)
    .bind(l.universe_id)
    .bind(l.item_type)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// An option's own prices, checked against its product's as the back-office form does.
fn option_prices(
    o: &FeedOption,
    product: (i64, i64),
) -> Result<(Option<i64>, Option<i64>), &'static str> {
    rules::option_prices(
        o.price.as_deref().unwrap_or(""),
        o.retail_price.as_deref().unwrap_or(""),
        product,
    )
}

async fn apply_option(
    tx: &mut Transaction<'static, Any>,
    ctx: &mut Ctx<'_>,
    path: &str,
    product_id: i64,
    o: &FeedOption,
    (price, retail): (Option<i64>, Option<i64>),
) -> Result<Option<i64>, sqlx::Error> {
    let label: String = o.label.trim().chars().filter(|c| !c.is_control()).collect();
    let id = match find(tx, ctx.ids, "option", &o.reference).await? {
        Found::Kept(id) => {
            ctx.out.unchanged += 1;
            id
        }
        Found::Known(id) => {
            let row = sqlx::query(
                "SELECT product_id, label, stock, held, sold, price_cents, retail_price_cents FROM product_options WHERE id = $1",
            )
            .bind(id)
            .fetch_one(&mut **tx)
            .await?;
            if row.try_get::<i64, _>("product_id")? != product_id {
                ctx.err(
                    path,
                    format!("the option {:?} belongs to another product", o.reference),
                );
                return Ok(None);
            }
            let (stock, held, sold): (i64, i64, i64) = (
                row.try_get("stock")?,
                row.try_get("held")?,
                row.try_get("sold")?,
            );
            let details_changed = row.try_get::<String, _>("label")? != label
                || row.try_get::<Option<i64>, _>("price_cents")? != price
                || row.try_get::<Option<i64>, _>("retail_price_cents")? != retail;
            if o.stock < held + sold {
                ctx.err(
                    &format!("{path}.stock"),
                    format!(
                        "{} ({held} held, {sold} sold)",
                        text::t(ctx.lang, "stock.error.below")
                    ),
                );
                return Ok(None);
            }
            if details_changed {
                sqlx::query("UPDATE product_options SET label = $2, price_cents = $3, retail_price_cents = $4 WHERE id = $1")
                    .bind(id)
                    .bind(&label)
                    .bind(price)
                    .bind(retail)
                    .execute(&mut **tx)
                    .await?;
            }
            let delta = o.stock - stock;
            if delta != 0 {
                // The guarded write: what members hold and bought is re-checked on the row.
                let n = sqlx::query("UPDATE product_options SET stock = stock + $2 WHERE id = $1 AND stock + $2 >= held + sold")
                    .bind(id)
                    .bind(delta)
                    .execute(&mut **tx)
                    .await?
                    .rows_affected();
                if n == 0 {
                    ctx.err(
                        &format!("{path}.stock"),
                        text::t(ctx.lang, "stock.error.below"),
                    );
                    return Ok(None);
                }
                history(tx, ctx, id, delta, o.stock, held, sold).await?;
            }
            if details_changed || delta != 0 {
                ctx.out.updated.options += 1;
            } else {
                ctx.out.unchanged += 1;
            }
            id
        }
        Found::New(given) => {
            let option = sales::NewOption {
                kind: "size",
                label: &label,
                stock: o.stock,
                price_cents: price,
                retail_price_cents: retail,
            };
            let id = sales::insert_option(tx, given, product_id, &option).await?;
            remember_new(tx, ctx.ids, "option", &o.reference, id).await?;
            history(tx, ctx, id, o.stock, o.stock, 0, 0).await?;
            ctx.out.created.options += 1;
            id
        }
    };
    Ok(Some(id))
}

async fn history(
    tx: &mut Transaction<'static, Any>,
    ctx: &Ctx<'_>,
    option_id: i64,
    delta: i64,
    after: i64,
    held: i64,
    sold: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO stock_history (option_id, at, operator_id, delta, stock_after, held, sold, reason)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'feed import')",
    )
    .bind(option_id)
    .bind(ctx.now)
    .bind(ctx.actor.operator_id)
    .bind(delta)
    .bind(after)
    .bind(held)
    .bind(sold)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
