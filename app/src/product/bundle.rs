//! Bundles (spec 000 §5 cart context `bundle_id`, §7 "bundle price"): products of one sale
//! sold together. The member picks an option of each; the bundle costs what its chosen
//! options cost, and goes into the cart in one add (the multi-item payload), every line
//! carrying the bundle's id. Where no option is picked, the product's first in stock counts,
//! as on the product page (`rules::shown_option`).
use crate::model::catalog_api::{Bundle, BundleLine, BundlePrice, Price};
use crate::model::error::WireError;
use crate::product::rules::shown_option;

/// The bundle's form, answered by a redirect to the cart (or back with the error).
pub const FORM_ROUTE: &str = "/cart/bundle";
/// Most options one price call or one form may name: more than any bundle has.
pub const MAX_CHOICES: usize = 20;

/// Why options make no bundle: each is a message key of the product page's bundle section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BundleRefusal {
    /// An option that is none of the bundle's products', or two options of one product.
    NotInBundle,
    /// A product of the bundle has nothing left in the option asked (or in any option).
    SoldOut,
}

impl WireError for BundleRefusal {
    fn status(&self) -> u16 {
        match self {
            BundleRefusal::NotInBundle => 400,
            BundleRefusal::SoldOut => 409,
        }
    }
    fn code(&self) -> &'static str {
        match self {
            BundleRefusal::NotInBundle => "not_in_bundle",
            BundleRefusal::SoldOut => "sold_out",
        }
    }
    fn message_key(&self) -> &'static str {
        match self {
            BundleRefusal::NotInBundle => "product.bundle.not_in_bundle",
            BundleRefusal::SoldOut => "product.bundle.sold_out",
        }
    }
}

/// The bundle's price in the options `chosen` (option ids, at most one per product),
/// with each line's option and price, in the bundle's order.
pub fn bundle_price(bundle: &Bundle, chosen: &[i64]) -> Result<BundlePrice, BundleRefusal> {
    if chosen.len() > MAX_CHOICES {
        return Err(BundleRefusal::NotInBundle);
    }
    let mut picked: Vec<Option<i64>> = vec![None; bundle.items.len()];
    for id in chosen {
        let at = bundle
            .items
            .iter()
            .position(|i| i.options.iter().any(|o| o.id == *id))
            .ok_or(BundleRefusal::NotInBundle)?;
        if picked[at].is_some_and(|p| p != *id) {
            return Err(BundleRefusal::NotInBundle);
        }
        picked[at] = Some(*id);
    }
    let mut lines = Vec::with_capacity(bundle.items.len());
    let (mut value, mut retail_value) = (0, 0);
    for (item, pick) in bundle.items.iter().zip(picked) {
        let option = shown_option(&item.options, pick)
            .filter(|o| o.stock > 0)
            .ok_or(BundleRefusal::SoldOut)?;
        value += option.price.value;
        retail_value += option.price.retail_value;
        lines.push(BundleLine {
            product_id: item.product_id,
            option_id: option.id,
            price: option.price.clone(),
        });
    }
    Ok(BundlePrice {
        bundle_id: bundle.id,
        price: Price {
            value,
            retail_value,
            unit: "EUR".into(),
        },
        lines,
    })
}

/// Option ids from a comma-separated list (`?options=12,13`); `None` when one is not a
/// positive number or there are too many.
pub fn parse_choices(list: &str) -> Option<Vec<i64>> {
    let ids: Vec<i64> = list
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<i64>().ok().filter(|n| *n > 0))
        .collect::<Option<_>>()?;
    (ids.len() <= MAX_CHOICES).then_some(ids)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::catalog_api::{Availability, BundleItem, ItemOption};

    fn price(value: i64) -> Price {
        Price {
            value,
            retail_value: value * 2,
            unit: "EUR".into(),
        }
    }

    fn option(id: i64, stock: i64, value: i64) -> ItemOption {
        ItemOption {
            id,
            label: format!("O{id}"),
            stock,
            availability: if stock > 0 {
                Availability::Available
            } else {
                Availability::OutOfStock
            },
            price: price(value),
            preview: None,
        }
    }

    fn item(product_id: i64, options: Vec<ItemOption>) -> BundleItem {
        BundleItem {
            product_id,
            name: format!("P{product_id}"),
            brand: "Noa".into(),
            image_url: String::new(),
            price: price(1000),
            options,
            seller_kind: "fs".into(),
        }
    }

    fn bundle() -> Bundle {
        Bundle {
            id: 9,
            sale_id: 1,
            items: vec![
                item(
                    1,
                    vec![
                        option(11, 0, 1000),
                        option(12, 3, 1000),
                        option(13, 2, 1500),
                    ],
                ),
                item(2, vec![option(21, 5, 2000)]),
            ],
        }
    }

    #[test]
    fn the_first_option_in_stock_counts_where_none_is_chosen() {
        let p = bundle_price(&bundle(), &[]).unwrap();
        assert_eq!(p.price.value, 3000);
        assert_eq!(p.price.retail_value, 6000);
        let options: Vec<i64> = p.lines.iter().map(|l| l.option_id).collect();
        assert_eq!(options, [12, 21]);
    }

    #[test]
    fn a_chosen_option_prices_at_its_own_price() {
        let p = bundle_price(&bundle(), &[13]).unwrap();
        assert_eq!(p.price.value, 3500);
        assert_eq!(p.lines[0].price.value, 1500);
    }

    #[test]
    fn options_outside_the_bundle_or_two_of_one_product_are_refused() {
        assert_eq!(
            bundle_price(&bundle(), &[99]),
            Err(BundleRefusal::NotInBundle)
        );
        assert_eq!(
            bundle_price(&bundle(), &[12, 13]),
            Err(BundleRefusal::NotInBundle)
        );
        // The same option twice is still one choice.
        assert!(bundle_price(&bundle(), &[12, 12]).is_ok());
    }

    #[test]
    fn a_sold_out_choice_or_product_makes_no_bundle() {
        assert_eq!(bundle_price(&bundle(), &[11]), Err(BundleRefusal::SoldOut));
        let mut b = bundle();
        b.items[1].options[0].stock = 0;
        assert_eq!(bundle_price(&b, &[]), Err(BundleRefusal::SoldOut));
    }

    #[test]
    fn choices_parse_from_a_comma_list() {
        assert_eq!(parse_choices("12, 21"), Some(vec![12, 21]));
        assert_eq!(parse_choices(""), Some(vec![]));
        assert_eq!(parse_choices("12,x"), None);
        assert_eq!(parse_choices("-3"), None);
        assert_eq!(parse_choices(&"1,".repeat(21)), None);
    }
}
