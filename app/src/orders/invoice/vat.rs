//! What an invoice says, as pure rules: the seller of each site and the VAT in VAT-included
//! prices. No I/O; the PDF ([`super::pdf`]) only lays these numbers out.
//!
//! Rounding, in integer cents: each line's VAT is taken from its VAT-included amount,
//! `vat = round(gross × rate / (100 + rate))`, rounded half away from zero, and
//! `net = gross − vat`. Shipping is a line like the others; a discount is a negative line at
//! the same rate. Totals are sums of the lines, so `net + vat = gross` holds exactly on
//! every line and in the totals, and the gross total is what the member paid.

/// The company that sells on a site, as its invoices name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seller {
    pub legal_name: &'static str,
    pub address: [&'static str; 2],
    pub vat_id: &'static str,
    /// The standard VAT rate of the site's country, in percent.
    pub vat_rate: i64,
}

const fn seller(
    legal_name: &'static str,
    street: &'static str,
    city: &'static str,
    vat_id: &'static str,
    vat_rate: i64,
) -> Seller {
    Seller {
        legal_name,
        address: [street, city],
        vat_id,
        vat_rate,
    }
}

/// The seller of a site (the 11 sites of spec 000 §3, by country; Violeta sites are sold by
/// the same companies as the Rosace site of their country).
pub fn seller_for(site_id: u16) -> Seller {
    match site_id {
        2 => seller(
            "Rosace Deutschland GmbH",
            "Friedrichstraße 68",
            "10117 Berlin, Deutschland",
            "DE 312 456 789",
            19,
        ),
        3 | 66 => seller(
            "Rosace España S.L.",
            "Calle de Alcalá 21",
            "28014 Madrid, España",
            "ES B12345678",
            21,
        ),
        4 | 69 => seller(
            "Rosace Italia S.r.l.",
            "Via Dante 12",
            "20121 Milano, Italia",
            "IT 12345678901",
            22,
        ),
        7 => seller(
            "Rosace Österreich GmbH",
            "Mariahilfer Straße 47",
            "1060 Wien, Österreich",
            "ATU12345678",
            20,
        ),
        70 | 71 => seller(
            "Rosace Belgium SRL",
            "Avenue Louise 54",
            "1050 Bruxelles, Belgique",
            "BE 0123.456.789",
            21,
        ),
        73 => seller(
            "Rosace Luxembourg S.à r.l.",
            "12 rue Philippe II",
            "2340 Luxembourg",
            "LU 12345678",
            17,
        ),
        76 => seller(
            "Rosace Nederland B.V.",
            "Herengracht 182",
            "1016 BR Amsterdam, Nederland",
            "NL 123456789B01",
            21,
        ),
        _ => seller(
            "Rosace SAS",
            "12 rue de la Paix",
            "75002 Paris, France",
            "FR 40 123456789",
            20,
        ),
    }
}

/// The VAT included in `gross` cents at `rate` percent, rounded half away from zero.
pub fn vat_included(gross: i64, rate: i64) -> i64 {
    let num = gross * rate;
    let den = 100 + rate;
    let q = num / den;
    let r = num % den;
    if 2 * r.abs() >= den {
        q + num.signum()
    } else {
        q
    }
}

/// One line of the invoice, amounts in cents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub name: String,
    pub quantity: i64,
    /// VAT included.
    pub unit_price: i64,
    pub rate: i64,
    pub net: i64,
    pub vat: i64,
    /// VAT included (`net + vat`).
    pub gross: i64,
}

impl Line {
    pub fn new(name: impl Into<String>, quantity: i64, unit_price: i64, rate: i64) -> Line {
        let gross = unit_price * quantity;
        let vat = vat_included(gross, rate);
        Line {
            name: name.into(),
            quantity,
            unit_price,
            rate,
            net: gross - vat,
            vat,
            gross,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub net: i64,
    pub vat: i64,
    pub gross: i64,
}

/// The order's amounts as invoice lines: the items, then loyalty, shipping and discount
/// (each only when not zero), and their totals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakdown {
    pub items: Vec<Line>,
    /// Loyalty, shipping, discount: named by the caller's translations.
    pub extras: Vec<(Extra, Line)>,
    pub totals: Totals,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extra {
    Loyalty,
    Shipping,
    Discount,
}

/// `items` are (name, quantity, VAT-included unit price).
pub fn breakdown(
    items: &[(String, i64, i64)],
    shipping: i64,
    discount: i64,
    loyalty: i64,
    rate: i64,
) -> Breakdown {
    let items: Vec<Line> = items
        .iter()
        .map(|(name, q, unit)| Line::new(name.clone(), *q, *unit, rate))
        .collect();
    let mut extras = Vec::new();
    for (kind, amount) in [
        (Extra::Loyalty, loyalty),
        (Extra::Shipping, shipping),
        (Extra::Discount, -discount),
    ] {
        if amount != 0 {
            extras.push((kind, Line::new("", 1, amount, rate)));
        }
    }
    let mut totals = Totals::default();
    for l in items.iter().chain(extras.iter().map(|(_, l)| l)) {
        totals.net += l.net;
        totals.vat += l.vat;
        totals.gross += l.gross;
    }
    Breakdown {
        items,
        extras,
        totals,
    }
}

/// `RS-2026-000123`: the year the number was given and its place in that year.
pub fn invoice_number(year: i64, value: i64) -> String {
    format!("RS-{year}-{value:06}")
}

/// Whether `s` has the shape `invoice_number` gives: a page shows a number from its
/// address only then, so a link cannot make it say anything else.
pub fn is_invoice_number(s: &str) -> bool {
    let mut parts = s.split('-');
    let (Some("RS"), Some(year), Some(value), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    year.len() == 4
        && (6..=9).contains(&value.len())
        && year
            .bytes()
            .chain(value.bytes())
            .all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_per_country() {
        let rate = |s| seller_for(s).vat_rate;
        assert_eq!(
            [1, 2, 3, 4, 7, 66, 69, 70, 71, 73, 76].map(rate),
            [20, 19, 21, 22, 20, 21, 22, 21, 21, 17, 21]
        );
        assert!(seller_for(2).vat_id.starts_with("DE"));
        assert_eq!(seller_for(999), seller_for(1));
    }

    #[test]
    fn vat_of_included_prices_rounds_half_away_from_zero() {
        // 120.00 at 20 %: exactly 20.00.
        assert_eq!(vat_included(12_000, 20), 2_000);
        // 10.00 at 20 %: 1.6666… → 1.67.
        assert_eq!(vat_included(1_000, 20), 167);
        // 0.06 at 20 %: 0.01 (1.0 cent → 1); 0.03 at 20 %: 0.5 cent → 1 (half away).
        assert_eq!(vat_included(6, 20), 1);
        assert_eq!(vat_included(3, 20), 1);
        assert_eq!(vat_included(2, 20), 0);
        // Negative amounts (a discount) mirror the positive ones.
        assert_eq!(vat_included(-1_000, 20), -167);
        assert_eq!(vat_included(-3, 20), -1);
        // 19 % (DE): 11.90 → 1.90.
        assert_eq!(vat_included(1_190, 19), 190);
        assert_eq!(vat_included(0, 21), 0);
    }

    #[test]
    fn lines_and_totals_add_up_to_what_was_paid() {
        let items = vec![
            ("Sac".to_string(), 2, 4_999),
            ("Écharpe".to_string(), 1, 1_999),
        ];
        let b = breakdown(&items, 690, 1_000, 0, 20);
        assert_eq!(b.items[0].gross, 9_998);
        assert_eq!(b.items[0].vat, 1_666);
        assert_eq!(b.items[0].net, 8_332);
        assert_eq!(b.extras.len(), 2);
        assert_eq!(b.extras[0].0, Extra::Shipping);
        assert_eq!(b.extras[0].1.vat, 115);
        assert_eq!(b.extras[1].0, Extra::Discount);
        assert_eq!(b.extras[1].1.gross, -1_000);
        assert_eq!(b.extras[1].1.vat, -167);
        assert_eq!(b.totals.gross, 9_998 + 1_999 + 690 - 1_000);
        assert_eq!(b.totals.net + b.totals.vat, b.totals.gross);
        for l in b.items.iter().chain(b.extras.iter().map(|(_, l)| l)) {
            assert_eq!(l.net + l.vat, l.gross);
        }
    }

    #[test]
    fn zero_extras_are_left_out() {
        let b = breakdown(&[("X".into(), 1, 100)], 0, 0, 0, 17);
        assert!(b.extras.is_empty());
        assert_eq!(b.totals.gross, 100);
        assert_eq!(b.totals.vat, 15); // 100 × 17 / 117 = 14.53 → 15
    }

    #[test]
    fn numbers_are_padded_per_year() {
        assert_eq!(invoice_number(2026, 123), "RS-2026-000123");
        assert_eq!(invoice_number(2027, 1_234_567), "RS-2027-1234567");
        assert!(is_invoice_number(&invoice_number(2026, 123)));
        assert!(is_invoice_number("RS-2027-1234567"));
        for bad in [
            "",
            "RS-2026",
            "RS-26-000123",
            "RS-2026-12",
            "XX-2026-000123",
            "RS-2026-000123-1",
            "RS-2026-00012a",
            "<b>RS-1</b>",
        ] {
            assert!(!is_invoice_number(bad), "{bad}");
        }
    }
}
