//! Travel offers: each product of a travel sale has two packages, each leaving from three
//! cities, with two durations and a priced calendar of departures.
use sqlx::{Any, Transaction};

use super::words::Words;
use super::{day_key, insert, t, Rng, Rows, V};

/// The travel rows of every site, in the order they are inserted.
#[derive(Default)]
pub(super) struct Travel {
    packages: Rows,
    cities: Rows,
    durations: Rows,
    calendar: Rows,
}

impl Travel {
    /// The packages of travel product `pid` (priced `price`). Called in the catalog's
    /// product loop, right after the product: its calendar draws from the same generator.
    pub(super) fn product(&mut self, rng: &mut Rng, w: &Words, pid: i64, price: i64, now: i64) {
        for p in 0..2i64 {
            let pkg = pid * 10 + p;
            self.packages.push(vec![
                V::I(pkg),
                V::I(pid),
                t(w.packages[p as usize]),
                V::I(p),
            ]);
            for (c, (code, city)) in w.cities.iter().enumerate() {
                let city_id = pkg * 10 + c as i64;
                self.cities
                    .push(vec![V::I(city_id), V::I(pkg), t(*code), t(*city)]);
                for (d, (days, nights)) in [(4i64, 3i64), (8, 7)].iter().enumerate() {
                    let dprice = price * days / 4 + (p * 15_000) + c as i64 * 2_000;
                    self.durations.push(vec![
                        V::I(city_id * 10 + d as i64),
                        V::I(city_id),
                        V::I(*days),
                        V::I(*nights),
                        V::I(dprice),
                    ]);
                }
                for day in 7..52i64 {
                    let dp = price + p * 15_000 + rng.below(40) * 500;
                    self.calendar.push(vec![
                        V::I(city_id),
                        t(day_key(now + day * 86_400)),
                        V::I(dp),
                        V::I(dp * 100 / 65),
                        V::I(if day % 11 == 0 { 0 } else { 2 + rng.below(8) }),
                    ]);
                }
            }
        }
    }

    /// Inserts the packages, departure cities, durations and calendar.
    pub(super) async fn insert(self, tx: &mut Transaction<'_, Any>) -> Result<(), sqlx::Error> {
        insert(
            tx,
            "travel_packages",
            &["id", "product_id", "title", "position"],
            self.packages,
        )
        .await?;
        insert(
            tx,
            "travel_departure_cities",
            &["id", "package_id", "code", "name"],
            self.cities,
        )
        .await?;
        insert(
            tx,
            "travel_durations",
            &["id", "city_id", "days", "nights", "price_cents"],
            self.durations,
        )
        .await?;
        insert(
            tx,
            "travel_calendar",
            &[
                "city_id",
                "day",
                "price_cents",
                "reference_price_cents",
                "stock",
            ],
            self.calendar,
        )
        .await?;
        Ok(())
    }
}
