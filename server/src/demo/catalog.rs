//! Per site the sales with their universes, products, size options and stock, as a feed
//! (`backoffice::feed`): the demo's catalogue comes into the shop by the same import as an
//! operator's. Travel sales draw their packages, departure cities and calendar among their
//! products (see `travel.rs`): the generator's draws follow the products in order.
use app::site::i18n::lang_of;
use app::site::SITES;

use crate::backoffice::feed::{
    Feed, FeedOption, FeedProduct, FeedSale, FeedSubUniverse, FeedUniverse,
};
use crate::backoffice::ui::datetime_value;

use super::travel::{city_name, destination_of, stay_name, Travel};
use super::travel_words::travel_words;
use super::words::{words, BRANDS};
use super::{Rng, SALES_PER_SITE, TRAVEL_OFFERS_PER_SALE, TRAVEL_SALES_PER_SITE};

const OFFER_TYPES: [&str; 7] = [
    "FlashSale",
    "FlashSale",
    "SecondHand",
    "Marketplace",
    "Premium",
    "M2M",
    "Rosace",
];
const SIZES: [&str; 6] = ["XS", "S", "M", "L", "XL", "XXL"];
/// The sizes of the sneakers (`Words::items[5]`): EU shoe sizes, odd ones among them.
const SHOE_SIZES: [&str; 6] = ["36", "37", "38", "39", "40", "41"];
/// The sizes of the jeans (`Words::items[4]`): French clothing sizes.
const NUMBER_SIZES: [&str; 6] = ["34", "36", "38", "40", "42", "44"];

/// A demo entry's ref: its id, which the import keeps (`Ids::FromRefs`).
pub(super) fn demo_ref(id: i64) -> String {
    format!("demo:{id}")
}

/// An amount in cents as the feed writes it: `89.90`.
pub(super) fn amount(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// The feed's time of `unix` (minutes; `refresh_dates` sets the demo's dates at each start).
fn feed_time(unix: i64) -> String {
    format!("{}Z", datetime_value(unix))
}

/// Generates the catalog of all sites, and the travel rows of its travel sales.
pub(super) fn generate(rng: &mut Rng, now: i64) -> (Feed, Travel) {
    let mut feed = Feed::default();
    let mut travel_rows = Travel::default();
    for (site_index, site) in SITES.iter().enumerate() {
        let lang = lang_of(site.locale);
        let w = words(lang);
        let base = (site_index as i64 + 1) * 1000;
        travel_rows.site(site_index, i64::from(site.site_id), lang);
        let mut first_brand = 0;
        for n in 0..SALES_PER_SITE + TRAVEL_SALES_PER_SITE {
            let sale_id = base + n + 1;
            let travel = n >= SALES_PER_SITE;
            let drawn = rng.below(30) + 1;
            // The last two shopping sales are the first sale's brand again: a brand with more
            // than one page of products, so its page has "load more" to do. (The draw is
            // kept, so every other value of the demo stays as it was.)
            let brand = match n {
                0 => drawn,
                _ if !travel && n >= SALES_PER_SITE - 2 => first_brand,
                _ => drawn,
            };
            if n == 0 {
                first_brand = drawn;
            }
            let theme = w.themes[(n % 8) as usize];
            let name = if travel {
                format!(
                    "{} {} · {}",
                    w.hotel,
                    BRANDS[(brand - 1) as usize],
                    w.cities[(n % 3) as usize].1
                )
            } else {
                format!("{} · {theme}", BRANDS[(brand - 1) as usize])
            };
            let seller_kind = if n % 7 == 3 { "marketplace" } else { "fs" };
            // The third sale of each site (a second-hand one) asks for the green "recycle"
            // theme, the sixth for black and white (spec 000 §9).
            let theme = match (travel, n + 1) {
                (false, p) if p == THEMED_SALES[0] => app::site::theme::RECYCLE,
                (false, p) if p == THEMED_SALES[1] => app::site::theme::BLACK_AND_WHITE,
                _ => "",
            };
            let mut sale = FeedSale {
                reference: demo_ref(sale_id),
                site: i64::from(site.site_id),
                name: name.clone(),
                offer_type: (if travel {
                    "FlashSale"
                } else {
                    OFFER_TYPES[(n % 7) as usize]
                })
                .into(),
                opens: feed_time(now - 86_400),
                closes: feed_time(now + 86_400),
                description: if travel {
                    travel_words(lang).sale_description.into()
                } else {
                    w.description.into()
                },
                legal_merchant: format!("{} SAS", BRANDS[(brand - 1) as usize]),
                with_quotation_price: travel,
                with_map: travel,
                kind: (if travel { "trips" } else { "shop" }).into(),
                seller_kind: seller_kind.into(),
                theme: theme.into(),
                position: n,
                ..FeedSale::default()
            };
            let product_count = if travel {
                TRAVEL_OFFERS_PER_SALE
            } else if n == 0 {
                // More than one 48-item page: paging and "load more" have something to do.
                60
            } else {
                12
            };
            let top: Vec<i64> = (0..3).map(|u| sale_id * 10 + u).collect();
            for (u, uid) in top.iter().enumerate() {
                sale.universes.push(FeedUniverse {
                    reference: demo_ref(*uid),
                    title: if travel {
                        travel_words(lang).universes[u].into()
                    } else {
                        w.universes[u].into()
                    },
                    subs: Vec::new(),
                });
            }
            // Clothes' sub-categories are for the shop's sales.
            let subs: &[&str] = if travel { &[] } else { &w.subs };
            sale.universes[0].subs = (subs.iter().enumerate())
                .map(|(s, sub)| FeedSubUniverse {
                    reference: demo_ref(sale_id * 10 + 3 + s as i64),
                    title: (*sub).into(),
                })
                .collect();
            for k in 0..product_count {
                let pid = sale_id * 100 + k + 1;
                let item_index = rng.below(12) as usize;
                let item = w.items[item_index];
                let pbrand = if rng.below(3) == 0 {
                    rng.below(30) + 1
                } else {
                    brand
                };
                let dest = destination_of(site_index, n, k);
                let pname = if travel {
                    format!(
                        "{} {} · {}",
                        stay_name(lang, k),
                        BRANDS[(pbrand - 1) as usize],
                        city_name(lang, dest)
                    )
                } else {
                    format!("{item} {}", BRANDS[(pbrand - 1) as usize])
                };
                let retail = if travel {
                    40_000 + rng.below(120) * 1000
                } else {
                    2_000 + rng.below(180) * 100 - 1
                };
                let price = retail * (30 + rng.below(50)) / 100 / 10 * 10 + 9;
                let colour = w.colours[rng.below(6) as usize];
                let mut product = FeedProduct {
                    reference: demo_ref(pid),
                    name: pname.clone(),
                    brand: BRANDS[(pbrand - 1) as usize].into(),
                    // A trip has no colour, and its sheet is about the stay, not clothes.
                    color: if travel { String::new() } else { colour.into() },
                    price: amount(price),
                    retail_price: amount(retail),
                    // A trip's page describes it with its highlights and tabs.
                    data_sheet: if travel {
                        String::new()
                    } else {
                        format!("<p>{}</p><ul><li>{colour}</li></ul>", w.description)
                    },
                    universe: Some(demo_ref(top[(k % 3) as usize])),
                    delivery_mode: rng.below(4),
                    tier: match k {
                        _ if k % 9 == 0 => "PREMIUM",
                        _ if k % 13 == 6 => "SOON",
                        _ => "ORDINARY",
                    }
                    .into(),
                    seller_kind: seller_kind.into(),
                    // Item types in lists (spec 000 §3): Normal 1, Carrousel 7, Ad 10.
                    item_type: match (n, k) {
                        (0, 4) => Some(10),
                        (0, 7) => Some(7),
                        _ => None,
                    },
                    ..FeedProduct::default()
                };
                if travel {
                    let trip = travel_rows.product(&w, lang, dest, pid, k, price, retail, now);
                    product.travel = Some(trip);
                } else if n == 0 && k == product_count - 1 {
                    // The last unit of the first sale: what members race for at opening.
                    product.options.push(FeedOption {
                        reference: demo_ref(pid * 10),
                        label: "TU".into(),
                        stock: 1,
                        ..FeedOption::default()
                    });
                } else {
                    let sizes = 3 + rng.below(4);
                    // Each kind of product in its own sizing (the size guide reads them).
                    let labels = match item_index {
                        4 => NUMBER_SIZES,
                        5 => SHOE_SIZES,
                        _ => SIZES,
                    };
                    for j in 0..sizes {
                        let stock = if rng.below(6) == 0 {
                            0
                        } else {
                            1 + rng.below(20)
                        };
                        // Every fourth product's sixth size (XXL) costs more (coverage P9: an
                        // option's own price); it is last, so the page shows it only once chosen.
                        let own = k % 4 == 1 && j == 5;
                        product.options.push(FeedOption {
                            reference: demo_ref(pid * 10 + j),
                            label: labels[j as usize].into(),
                            stock,
                            price: own.then(|| amount(price + 500)),
                            retail_price: own.then(|| amount(retail + 1000)),
                            picture: None,
                        });
                    }
                }
                sale.products.push(product);
            }
            feed.sales.push(sale);
        }
    }
    (feed, travel_rows)
}

/// The position on its site (sale id modulo 1000) of the recycle and the black-and-white sale.
pub const THEMED_SALES: [i64; 2] = [3, 6];
