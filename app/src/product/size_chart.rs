//! The size guide of a product (spec 000 §7 "size chart conversions", which gives no
//! shape): each of the product's sizes in the other sizing systems. Pure, so the page and
//! the REST call share it.
//!
//! Which table a product gets comes from its size labels alone (the shop has no size-system
//! field): letters (XS … 3XL) are clothing in international sizes; even numbers from 32 to
//! 56 are French clothing sizes; a set with an odd or half size from 34 to 48 is shoes. A
//! set that mixes kinds, or holds a label no table knows ("TU", one size), gets no guide:
//! a guide that guessed would be worse than none.
use crate::model::catalog_api::{SizeChart, SizeChartRow};

/// The sizing systems of each kind, in column order (the row's own size is the first).
const LETTER_SYSTEMS: [&str; 5] = ["INT", "FR", "IT", "UK", "US"];
const CLOTHING_SYSTEMS: [&str; 5] = ["FR", "INT", "IT", "UK", "US"];
const SHOE_SYSTEMS: [&str; 4] = ["EU", "UK", "US_W", "US_M"];

/// Letter sizes with their French size, from which the other systems follow.
const LETTERS: [(&str, i32); 9] = [
    ("XXS", 32),
    ("XS", 34),
    ("S", 36),
    ("M", 38),
    ("L", 40),
    ("XL", 42),
    ("XXL", 44),
    ("XXXL", 46),
    ("3XL", 46),
];

/// French clothing size → IT, UK, US (women's, the common reading of a fashion sale).
fn clothing_row(fr: i32) -> [String; 3] {
    [
        (fr + 4).to_string(),
        (fr - 28).to_string(),
        (fr - 32).to_string(),
    ]
}

/// The letter size of a French size, when one is that size.
fn letter_of(fr: i32) -> Option<&'static str> {
    LETTERS
        .iter()
        .find(|(l, size)| *size == fr && *l != "3XL")
        .map(|(l, _)| *l)
}

/// EU shoe size (in half sizes, ×2) → UK, US women's, US men's. EU sizes step by two thirds
/// of a centimetre of last (the Paris point) and UK sizes by a third of an inch with 25 below
/// zero, so UK = EU × 100/127 − 25, to the nearest half; US women's = UK + 2, men's UK + 1.
fn shoe_row(eu_halves: i32) -> [String; 3] {
    let uk_halves = (eu_halves * 100 + 63) / 127 - 50;
    let half = |h: i32| {
        if h % 2 == 0 {
            (h / 2).to_string()
        } else {
            format!("{}.5", h / 2)
        }
    };
    [half(uk_halves), half(uk_halves + 4), half(uk_halves + 2)]
}

/// A size label as a number of half sizes (`38` → 76, `38.5` or `38,5` or `38½` → 77).
fn halves(label: &str) -> Option<i32> {
    let t = label.trim().replace(',', ".").replace('½', ".5");
    let (whole, frac) = t.split_once('.').unwrap_or((&t, ""));
    let whole: i32 = whole.parse().ok().filter(|_| whole.len() <= 2)?;
    match frac {
        "" | "0" => Some(whole * 2),
        "5" => Some(whole * 2 + 1),
        _ => None,
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Letters,
    Clothing,
    Shoes,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Letters => "letters",
            Kind::Clothing => "clothing",
            Kind::Shoes => "shoes",
        }
    }
    fn systems(self) -> &'static [&'static str] {
        match self {
            Kind::Letters => &LETTER_SYSTEMS,
            Kind::Clothing => &CLOTHING_SYSTEMS,
            Kind::Shoes => &SHOE_SYSTEMS,
        }
    }
}

fn kind_of(labels: &[&str]) -> Option<Kind> {
    if labels.is_empty() {
        return None;
    }
    let upper: Vec<String> = labels.iter().map(|l| l.trim().to_uppercase()).collect();
    if upper.iter().all(|l| LETTERS.iter().any(|(x, _)| x == l)) {
        return Some(Kind::Letters);
    }
    let numbers: Vec<i32> = labels.iter().map(|l| halves(l)).collect::<Option<_>>()?;
    // Whole even sizes read as clothing; an odd or half one among them makes shoes.
    let clothing = numbers.iter().all(|h| h % 4 == 0 && (64..=112).contains(h));
    let shoes = numbers.iter().all(|h| (68..=96).contains(h));
    if clothing {
        Some(Kind::Clothing)
    } else if shoes {
        Some(Kind::Shoes)
    } else {
        None
    }
}

/// The size guide of a product whose options carry `labels`, in the options' order; `None`
/// when the labels do not make one table.
pub fn size_chart(labels: &[&str]) -> Option<SizeChart> {
    let kind = kind_of(labels)?;
    let rows = labels
        .iter()
        .map(|label| {
            let label = label.trim();
            let conversions: Vec<String> = match kind {
                Kind::Letters => {
                    let upper = label.to_uppercase();
                    let fr = LETTERS.iter().find(|(l, _)| *l == upper)?.1;
                    let [it, uk, us] = clothing_row(fr);
                    vec![fr.to_string(), it, uk, us]
                }
                Kind::Clothing => {
                    let fr = halves(label)? / 2;
                    let [it, uk, us] = clothing_row(fr);
                    let letter = letter_of(fr).unwrap_or("–").to_string();
                    vec![letter, it, uk, us]
                }
                Kind::Shoes => shoe_row(halves(label)?).to_vec(),
            };
            Some(SizeChartRow {
                size: label.to_string(),
                conversions,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(SizeChart {
        kind: kind.name().to_string(),
        systems: kind.systems().iter().map(|s| s.to_string()).collect(),
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(chart: &SizeChart) -> Vec<Vec<String>> {
        chart
            .rows
            .iter()
            .map(|r| {
                std::iter::once(r.size.clone())
                    .chain(r.conversions.iter().cloned())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn letter_sizes_convert_through_their_french_size() {
        let chart = size_chart(&["S", "m", "XL"]).unwrap();
        assert_eq!(chart.kind, "letters");
        assert_eq!(chart.systems, ["INT", "FR", "IT", "UK", "US"]);
        assert_eq!(
            table(&chart),
            [
                ["S", "36", "40", "8", "4"],
                ["m", "38", "42", "10", "6"],
                ["XL", "42", "46", "14", "10"],
            ]
        );
    }

    #[test]
    fn even_french_sizes_are_clothing_with_their_letter() {
        let chart = size_chart(&["36", "38", "48"]).unwrap();
        assert_eq!(chart.kind, "clothing");
        assert_eq!(
            table(&chart),
            [
                ["36", "S", "40", "8", "4"],
                ["38", "M", "42", "10", "6"],
                ["48", "–", "52", "20", "16"],
            ]
        );
    }

    #[test]
    fn odd_or_half_sizes_are_shoes() {
        let chart = size_chart(&["36", "37", "38.5", "42"]).unwrap();
        assert_eq!(chart.kind, "shoes");
        assert_eq!(chart.systems, ["EU", "UK", "US_W", "US_M"]);
        assert_eq!(
            table(&chart),
            [
                ["36", "3.5", "5.5", "4.5"],
                ["37", "4", "6", "5"],
                ["38.5", "5.5", "7.5", "6.5"],
                ["42", "8", "10", "9"],
            ]
        );
    }

    #[test]
    fn one_size_mixed_or_unknown_labels_get_no_guide() {
        assert_eq!(size_chart(&["TU"]), None);
        assert_eq!(size_chart(&[]), None);
        assert_eq!(size_chart(&["S", "38"]), None);
        assert_eq!(size_chart(&["36", "bleu"]), None);
        assert_eq!(size_chart(&["120"]), None);
        assert_eq!(size_chart(&["38.7"]), None);
    }
}
