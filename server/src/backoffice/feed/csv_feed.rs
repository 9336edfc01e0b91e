//! The CSV feed: one line per option of a product, for sales the shop already has (named
//! by their feed ref), with a header line:
//!
//! `sale_ref,product_ref,product_name,brand,color,price,retail_price,option_ref,option_label,stock`
//!
//! with two more columns where options have prices of their own:
//! `...,stock,option_price,option_retail_price` (empty cells: the product's). Without them,
//! every option has its product's prices.
//!
//! Lines of one product repeat its columns; the first line of a product gives its values.
use super::{Feed, FeedOption, FeedProduct, FeedSale};

pub const HEADER: [&str; 10] = [
    "sale_ref",
    "product_ref",
    "product_name",
    "brand",
    "color",
    "price",
    "retail_price",
    "option_ref",
    "option_label",
    "stock",
];

/// The optional last columns: an option's own prices.
pub const OPTION_PRICES: [&str; 2] = ["option_price", "option_retail_price"];

pub fn parse(text: &str) -> Result<Feed, Vec<String>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(false)
        .from_reader(text.as_bytes());
    let header: Vec<String> = match reader.headers() {
        Ok(h) => h.iter().map(|c| c.trim().to_string()).collect(),
        Err(e) => return Err(vec![format!("line 1: {e}")]),
    };
    let with_option_prices = header.len() == HEADER.len() + OPTION_PRICES.len()
        && header[HEADER.len()..] == OPTION_PRICES;
    if header[..header.len().min(HEADER.len())] != HEADER
        || (header.len() != HEADER.len() && !with_option_prices)
    {
        return Err(vec![format!(
            "line 1: the header must be {} (then, optionally, {})",
            HEADER.join(","),
            OPTION_PRICES.join(",")
        )]);
    }
    let mut feed = Feed::default();
    let mut errors = Vec::new();
    for record in reader.records() {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                let line = e.position().map(|p| p.line()).unwrap_or(0);
                errors.push(format!("line {line}: {e}"));
                continue;
            }
        };
        let line = record.position().map(|p| p.line()).unwrap_or(0);
        let col = |i: usize| record.get(i).unwrap_or("").trim().to_string();
        let Ok(stock) = col(9).parse::<i64>() else {
            errors.push(format!(
                "line {line}: stock: not a whole number: {:?}",
                col(9)
            ));
            continue;
        };
        let sale_ref = col(0);
        let sale = match feed.sales.iter_mut().position(|s| s.reference == sale_ref) {
            Some(i) => &mut feed.sales[i],
            None => {
                feed.sales.push(FeedSale {
                    reference: sale_ref,
                    ..Default::default()
                });
                feed.sales.last_mut().unwrap()
            }
        };
        let product_ref = col(1);
        let product = match sale
            .products
            .iter_mut()
            .position(|p| p.reference == product_ref)
        {
            Some(i) => &mut sale.products[i],
            None => {
                sale.products.push(FeedProduct {
                    reference: product_ref,
                    name: col(2),
                    brand: col(3),
                    color: col(4),
                    price: col(5),
                    retail_price: col(6),
                    ..Default::default()
                });
                sale.products.last_mut().unwrap()
            }
        };
        product.options.push(FeedOption {
            reference: col(7),
            label: col(8),
            stock,
            price: Some(col(10)).filter(|_| with_option_prices),
            retail_price: Some(col(11)).filter(|_| with_option_prices),
            picture: None,
        });
    }
    if errors.is_empty() {
        Ok(feed)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_group_into_sales_products_and_options() {
        let text = "sale_ref,product_ref,product_name,brand,color,price,retail_price,option_ref,option_label,stock\n\
                    s1,p1,\"Caban, laine\",Maison,bleu,89.90,179,o1,S,3\n\
                    s1,p1,\"Caban, laine\",Maison,bleu,89.90,179,o2,M,2\n\
                    s1,p2,Parka,,,120,240,o3,L,0\n";
        let feed = parse(text).unwrap();
        assert_eq!(feed.sales.len(), 1);
        assert_eq!(feed.sales[0].products.len(), 2);
        assert_eq!(feed.sales[0].products[0].name, "Caban, laine");
        assert_eq!(feed.sales[0].products[0].options.len(), 2);
    }

    #[test]
    fn options_may_carry_prices_of_their_own() {
        let text = "sale_ref,product_ref,product_name,brand,color,price,retail_price,option_ref,option_label,stock,option_price,option_retail_price\n\
                    s1,p1,Caban,,,89.90,179,o1,S,3,,\n\
                    s1,p1,Caban,,,89.90,179,o2,XXL,2,99.90,199\n";
        let options = &parse(text).unwrap().sales[0].products[0].options;
        assert_eq!(options[0].price.as_deref(), Some(""));
        assert_eq!(options[1].price.as_deref(), Some("99.90"));
        assert_eq!(options[1].retail_price.as_deref(), Some("199"));
        // One optional column without the other is no header the import knows.
        let half = "sale_ref,product_ref,product_name,brand,color,price,retail_price,option_ref,option_label,stock,option_price\n";
        assert!(parse(half).unwrap_err()[0].contains("the header must be"));
    }

    #[test]
    fn errors_name_their_line() {
        let text = "sale_ref,product_ref,product_name,brand,color,price,retail_price,option_ref,option_label,stock\n\
                    s1,p1,Caban,,,1,2,o1,S,three\n\
                    s1,p1,Caban,,,1,2,o2\n";
        let errors = parse(text).unwrap_err();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[0].starts_with("line 2: stock"), "{errors:?}");
        assert!(errors[1].starts_with("line 3:"), "{errors:?}");
        assert!(parse("a,b\n1,2\n").unwrap_err()[0].contains("the header must be"));
    }
}
