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
}
