//! Which option the product page shows the price and picture of (coverage P9).
use crate::model::catalog_api::{ItemOption, Price};

/// The message of a product a moderator took off the shop; the page tells it by this key.
pub const REMOVED_KEY: &str = "product.removed";

/// The option whose price and picture the page shows: the chosen one, else the first still
/// in stock. The server renders the second case; the browser the first once a member
/// chooses, so a page without its script shows the same as one before any choice.
pub fn shown_option(options: &[ItemOption], chosen: Option<i64>) -> Option<&ItemOption> {
    chosen
        .and_then(|id| options.iter().find(|o| o.id == id))
        .or_else(|| options.iter().find(|o| o.stock > 0))
}

/// The price shown: the shown option's, else the product's own.
pub fn shown_price(options: &[ItemOption], chosen: Option<i64>, product: &Price) -> Price {
    shown_option(options, chosen)
        .map(|o| o.price.clone())
        .unwrap_or_else(|| product.clone())
}

/// The picture shown: the shown option's own, else the product's.
pub fn shown_image(options: &[ItemOption], chosen: Option<i64>, product_image: &str) -> String {
    shown_option(options, chosen)
        .and_then(|o| o.preview.clone())
        .unwrap_or_else(|| product_image.to_string())
}

/// A product picture's `srcset` for the page's 480 px column, at single and double density
/// (the widths the picture route serves). The drawn demo pictures ignore the width.
pub fn srcset(image_url: &str) -> String {
    format!("{image_url}?w=480 480w, {image_url}?w=960 960w")
}

/// An add a visitor began before signing in: the chosen option, how many and the cart
/// type, carried through the sign-in in the page's address under spec 000 §2's catalog
/// query names `productid`, `quantity` and `type`, so the member comes back to the same
/// choice (nothing is added by the link itself: a link must not change a cart).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingAdd {
    pub option_id: i64,
    pub quantity: i64,
}

/// Where a visitor is brought back to after signing in: this page's address (`search` with
/// its `?`, or empty) with the pending add after its query. An older pending add may stay
/// before it: a query name's last value is the one read. (Kept to a join: this runs in the
/// product page's island, whose every byte the page's budget counts.)
pub fn address_with_pending_add(
    path: &str,
    search: &str,
    option_id: i64,
    quantity: i64,
    cart_type: &str,
) -> String {
    let join = if search.len() > 1 { "&" } else { "?" };
    let search = if search.len() > 1 { search } else { "" };
    format!("{path}{search}{join}productid={option_id}&quantity={quantity}&type={cart_type}")
}

/// The pending add a page's address names, if it still holds for this product: one of its
/// options still in stock, a quantity from 1 to what is left, and the product's own cart
/// type (a missing `type` is the flash-sale cart, as for any add). Anything else is a
/// stale or edited link, and the page shows no choice.
pub fn pending_add(
    query: impl Fn(&str) -> Option<String>,
    options: &[ItemOption],
    cart_type: &str,
) -> Option<PendingAdd> {
    let number = |k: &str| query(k).and_then(|v| v.trim().parse::<i64>().ok());
    let option = options
        .iter()
        .find(|o| Some(o.id) == number("productid") && o.stock > 0)?;
    let quantity = match query("quantity") {
        None => 1,
        Some(_) => number("quantity")?,
    };
    if !(1..=option.stock.min(crate::cart::rules::MAX_QUANTITY_PER_ADD)).contains(&quantity) {
        return None;
    }
    let asked_type = query("type").unwrap_or_else(|| crate::cart::rules::DEFAULT_CART_TYPE.into());
    (asked_type == cart_type).then_some(PendingAdd {
        option_id: option.id,
        quantity,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::catalog_api::Availability;

    fn option(id: i64, stock: i64, value: i64, preview: Option<&str>) -> ItemOption {
        ItemOption {
            id,
            label: format!("O{id}"),
            stock,
            availability: if stock > 0 {
                Availability::Available
            } else {
                Availability::OutOfStock
            },
            price: Price {
                value,
                retail_value: value * 2,
                unit: "EUR".into(),
            },
            preview: preview.map(str::to_string),
        }
    }

    fn product_price() -> Price {
        Price {
            value: 1000,
            retail_value: 3000,
            unit: "EUR".into(),
        }
    }

    #[test]
    fn the_chosen_option_wins_else_the_first_in_stock() {
        let options = [
            option(1, 0, 900, Some("/img/p/1")),
            option(2, 3, 1200, None),
            option(3, 1, 1500, Some("/img/p/3")),
        ];
        assert_eq!(shown_option(&options, None).map(|o| o.id), Some(2));
        assert_eq!(shown_option(&options, Some(3)).map(|o| o.id), Some(3));
        // An id that is no longer an option (sold and removed) falls back.
        assert_eq!(shown_option(&options, Some(9)).map(|o| o.id), Some(2));
        assert_eq!(shown_price(&options, Some(3), &product_price()).value, 1500);
        assert_eq!(
            shown_price(&options, None, &product_price()).retail_value,
            2400
        );
        assert_eq!(
            shown_image(&options, Some(3), "/img/product/7.svg"),
            "/img/p/3"
        );
        // An option without a picture of its own shows the product's.
        assert_eq!(
            shown_image(&options, None, "/img/product/7.svg"),
            "/img/product/7.svg"
        );
    }

    #[test]
    fn a_product_sold_out_in_every_option_shows_its_own_price_and_picture() {
        let options = [option(1, 0, 900, Some("/img/p/1"))];
        assert_eq!(
            shown_price(&options, None, &product_price()),
            product_price()
        );
        assert_eq!(shown_image(&options, None, "/img/p/7"), "/img/p/7");
        assert_eq!(shown_price(&[], None, &product_price()), product_price());
    }

    #[test]
    fn a_pending_add_holds_only_for_this_products_options_in_stock() {
        let options = [option(1, 0, 10, None), option(2, 3, 12, None)];
        let query = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(key, _)| *key == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        let held = |pairs| pending_add(query(pairs), &options, "fs");
        assert_eq!(
            held(&[("productid", "2"), ("quantity", "2"), ("type", "fs")]),
            Some(PendingAdd {
                option_id: 2,
                quantity: 2
            })
        );
        // No quantity or type: one, in the flash-sale cart.
        assert_eq!(
            held(&[("productid", " 2 ")]),
            Some(PendingAdd {
                option_id: 2,
                quantity: 1
            })
        );
        // Sold out, another product's option, more than is left, none, nonsense, the
        // marketplace cart for a flash-sale product: no choice shown.
        for pairs in [
            &[("productid", "1")][..],
            &[("productid", "9")],
            &[("productid", "2"), ("quantity", "4")],
            &[("productid", "2"), ("quantity", "0")],
            &[("productid", "2"), ("quantity", "-1")],
            &[("productid", "2"), ("quantity", "deux")],
            &[("productid", "2"), ("type", "marketplace")],
            &[("productid", "<script>")],
            &[],
        ] {
            assert_eq!(held(pairs), None, "{pairs:?}");
        }
        assert_eq!(
            pending_add(
                query(&[("productid", "2"), ("type", "marketplace")]),
                &options,
                "marketplace"
            ),
            Some(PendingAdd {
                option_id: 2,
                quantity: 1
            })
        );
    }

    #[test]
    fn the_address_after_sign_in_carries_the_pending_add_last() {
        assert_eq!(
            address_with_pending_add("/seo-product/a/1/b/2", "", 7, 1, "fs"),
            "/seo-product/a/1/b/2?productid=7&quantity=1&type=fs"
        );
        assert_eq!(
            address_with_pending_add("/product/1/2", "?", 7, 1, "fs"),
            "/product/1/2?productid=7&quantity=1&type=fs"
        );
        // The page's own query stays; the new add comes after an older one, and the page
        // reads a name's last value.
        assert_eq!(
            address_with_pending_add(
                "/product/1/2",
                "?site=3&productid=5&quantity=2",
                7,
                1,
                "marketplace"
            ),
            "/product/1/2?site=3&productid=5&quantity=2&productid=7&quantity=1&type=marketplace"
        );
    }
}
