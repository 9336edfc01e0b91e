//! Booking a departure: checks against the spec's rules, then one transaction each for
//! holding places, paying (the booking becomes an order of type `travel`) and cancelling.
//! Writes go through the cart's writer (one connection on SQLite, in arrival order).
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::address::model::DeliveryAddress;
use crate::address::rules::default_address;
use crate::address::store as address_store;
use crate::cart::payment::PaymentOutcome;
use crate::cart::service::CartService;
use crate::model::error::FieldError;
use crate::model::travel::{Participant, TravelProduct};
use crate::travel::error::TravelError;
use crate::travel::rules::{
    active_checkin, active_duration, booking_total, checkout_blocks, checkout_problems,
    places_taken, with_birthdays, Configuration, Date, StayLength, Traveller,
};
use crate::travel::store;

/// How long places stay held while the member pays.
pub const HOLD_SECS: i64 = 15 * 60;

/// `POST /api/travel/v1/checkout`: the configuration to book.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BookingRequest {
    pub campaign_id: i64,
    pub product_id: i64,
    pub package_id: i64,
    pub departure_city_id: i64,
    pub days: u32,
    pub nights: u32,
    /// `YYYY-MM-DD`.
    pub checkin: String,
    pub participants: Vec<Participant>,
    #[serde(default)]
    pub benefits: Vec<i64>,
    /// Names and birthdays, in the order of `participants`.
    #[serde(default)]
    pub travellers: Vec<Traveller>,
    /// One of the member's saved addresses (`/api/address/v1`), recorded with the booking;
    /// left out, their favourite (else their first). Another member's or an unknown id is
    /// refused (404 `unknown_address`), an empty address book blocks the booking (400,
    /// field `addressId`).
    #[serde(default)]
    pub address_id: Option<i64>,
}

/// A booking as the member sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Booking {
    pub id: i64,
    pub product_id: i64,
    pub checkin: String,
    pub places: i64,
    /// `held`, `paid`, `expired` or `cancelled`.
    pub status: String,
    pub expires_at: i64,
    pub total: i64,
    pub currency: String,
    pub order_id: Option<i64>,
}

impl From<store::booking::BookingRow> for Booking {
    fn from(b: store::booking::BookingRow) -> Booking {
        Booking {
            id: b.id,
            product_id: b.product_id,
            checkin: b.day,
            places: b.places,
            status: b.status,
            expires_at: b.expires_at,
            total: b.total_cents,
            currency: b.currency,
            order_id: b.order_id,
        }
    }
}

pub struct TravelService {
    cart: Arc<CartService>,
}

impl TravelService {
    pub fn new(cart: Arc<CartService>) -> TravelService {
        TravelService { cart }
    }

    fn db(&self) -> &crate::platform::db::Db {
        &self.cart.db
    }

    pub async fn product(
        &self,
        site_id: u16,
        sale_id: i64,
        product_id: i64,
        member_id: Option<i64>,
        now: i64,
    ) -> Result<TravelProduct, TravelError> {
        store::product(self.db(), site_id, sale_id, product_id, member_id, now)
            .await?
            .ok_or(TravelError::NotFound)
    }

    /// The product as its page shows it; a signed-in member's view goes to the front of
    /// their last-viewed list (a failure there does not fail the page).
    pub async fn view_product(
        &self,
        site_id: u16,
        sale_id: i64,
        product_id: i64,
        member_id: Option<i64>,
        now: i64,
    ) -> Result<TravelProduct, TravelError> {
        let product = self
            .product(site_id, sale_id, product_id, member_id, now)
            .await?;
        if let Some(member_id) = member_id {
            if let Err(e) = self.record_view(member_id, product_id, now).await {
                tracing::warn!(error = %e, "cannot record a last-viewed travel product");
            }
        }
        Ok(product)
    }

    async fn record_view(
        &self,
        member_id: i64,
        product_id: i64,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        let mut w = self.cart.begin().await?;
        store::last_viewed::record(&mut *w.tx, member_id, product_id, now).await?;
        store::last_viewed::trim(&mut *w.tx, member_id).await?;
        w.commit().await
    }

    /// The address the booking is recorded with: the chosen one, which must be the
    /// member's (`UnknownAddress` otherwise), else their favourite, else their first;
    /// `None` when their address book is empty.
    async fn booking_address(
        &self,
        member_id: i64,
        chosen: Option<i64>,
    ) -> Result<Option<DeliveryAddress>, TravelError> {
        let mut conn = self.db().pool.acquire().await?;
        let address = match chosen {
            Some(id) => Some(
                address_store::get(&mut conn, member_id, id)
                    .await?
                    .ok_or(TravelError::UnknownAddress)?,
            ),
            None => default_address(&address_store::list(&mut conn, member_id).await?).cloned(),
        };
        Ok(address.as_ref().map(DeliveryAddress::from))
    }

    /// Holds the places of the configuration for [`HOLD_SECS`], after checking it against
    /// the rules and the member's address book; `SoldOut` when the departure has fewer
    /// places left than travellers. A refusal holds nothing.
    pub async fn reserve(
        &self,
        member_id: i64,
        site_id: u16,
        currency: &str,
        req: BookingRequest,
        now: i64,
    ) -> Result<Booking, TravelError> {
        let product = self
            .product(
                site_id,
                req.campaign_id,
                req.product_id,
                Some(member_id),
                now,
            )
            .await?;
        let config = Configuration {
            package_id: Some(req.package_id),
            city_id: Some(req.departure_city_id),
            stay: Some(StayLength {
                days: req.days,
                nights: req.nights,
            }),
            checkin: Some(req.checkin.clone()),
            benefits: req.benefits.clone(),
            participants: with_birthdays(&req.participants, &req.travellers),
            cheapest: false,
        };
        let package = config.package(&product).ok_or(TravelError::NotFound)?;
        let address = self.booking_address(member_id, req.address_id).await?;
        let duration = active_duration(package, &config).ok_or(TravelError::Blocked(vec![
            crate::travel::rules::BookingBlock::MissingDuration,
        ]))?;
        let days = store::duration_calendar(self.db(), duration.id, now)
            .await?
            .unwrap_or_default();
        let blocks = checkout_blocks(&product, &config, &days, address.is_some());
        // A departure that filled up since the member saw it is sold out, not a mistake.
        let full = days.get(&req.checkin).is_some_and(|d| d.is_out_of_stock);
        if full && blocks == [crate::travel::rules::BookingBlock::DayNotBookable] {
            return Err(TravelError::SoldOut);
        }
        if !blocks.is_empty() {
            return Err(TravelError::Blocked(blocks));
        }
        let problems = checkout_problems(
            &req.participants,
            &req.travellers,
            &req.checkin,
            &package.configurator.participants.profiles,
        );
        if !problems.is_empty() {
            return Err(TravelError::Invalid(
                problems
                    .into_iter()
                    .map(|p| FieldError {
                        field: p.field,
                        message_key: p.key.into(),
                    })
                    .collect(),
            ));
        }
        let checkin = active_checkin(&config, &days).ok_or(TravelError::Blocked(vec![
            crate::travel::rules::BookingBlock::MissingCheckin,
        ]))?;
        let day = Date::parse(checkin).ok_or(TravelError::SoldOut)?;
        let price = days
            .get(checkin)
            .map(|d| d.price)
            .ok_or(TravelError::SoldOut)?;
        let benefits: Vec<_> = package
            .configurator
            .benefits
            .iter()
            .filter(|b| config.benefits.contains(&b.id))
            .collect();
        let counts = config.counts();
        let total = booking_total(
            price,
            counts,
            &package.configurator.participants.profiles,
            &benefits,
        );
        let places = places_taken(counts);
        let season_places = store::product::season_places(self.db(), duration.id, day).await?;
        let season_places = season_places.ok_or(TravelError::SoldOut)?;

        let mut w = self.cart.begin().await?;
        store::booking::release_expired(&mut w.tx, now, 50).await?;
        if !store::booking::hold(&mut w.tx, duration.id, day, season_places, places).await? {
            return Err(TravelError::SoldOut);
        }
        let travellers: Vec<serde_json::Value> = config
            .participants
            .iter()
            .zip(&req.travellers)
            .map(|(p, t)| {
                // The configurator's birthday priced a child; an adult's is the one typed
                // at checkout.
                let typed = Some(t.birthday.trim()).filter(|b| !b.is_empty());
                serde_json::json!({
                    "type": p.kind, "birthday": p.birthday.as_deref().or(typed),
                    "firstName": t.first_name.trim(), "lastName": t.last_name.trim(),
                })
            })
            .collect();
        let participants = serde_json::to_string(&travellers).unwrap_or_else(|_| "[]".into());
        // The booking keeps its own copy: later edits of the address book change nothing.
        let address = serde_json::to_string(&address).unwrap_or_else(|_| "{}".into());
        let chosen = serde_json::to_string(&config.benefits).unwrap_or_else(|_| "[]".into());
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO travel_bookings (member_id, site_id, product_id, duration_id, day, places, status,
                    expires_at, total_cents, currency, participants_json, benefits_json, address_json,
                    created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, 'held', $7, $8, $9, $10, $11, $13, $12, $12) RETURNING id",
        )
        .bind(member_id)
        .bind(i64::from(site_id))
        .bind(req.product_id)
        .bind(duration.id)
        .bind(checkin)
        .bind(places)
        .bind(now + HOLD_SECS)
        .bind(total)
        .bind(currency)
        .bind(participants)
        .bind(chosen)
        .bind(now)
        .bind(address)
        .fetch_one(&mut *w.tx)
        .await?;
        w.commit().await?;
        // Places fewer: the cheapest day may be gone.
        self.refresh_from_price(req.product_id, now).await;
        Ok(Booking {
            id,
            product_id: req.product_id,
            checkin: checkin.to_string(),
            places,
            status: "held".into(),
            expires_at: now + HOLD_SECS,
            total,
            currency: currency.into(),
            order_id: None,
        })
    }

    /// The member's booking, or `NoBooking` (also for another member's id).
    pub async fn booking(&self, member_id: i64, id: i64) -> Result<Booking, TravelError> {
        store::booking::booking(&self.db().pool, id)
            .await?
            .filter(|b| b.member_id == member_id)
            .map(Booking::from)
            .ok_or(TravelError::NoBooking)
    }

    /// Pays a held booking with the sandbox card: the places are sold and the booking
    /// becomes an order of type `travel`. Paying again answers the same order.
    pub async fn pay(
        &self,
        member_id: i64,
        site_id: u16,
        id: i64,
        card: Option<&str>,
        now: i64,
    ) -> Result<Booking, TravelError> {
        let booking = self.booking(member_id, id).await?;
        match booking.status.as_str() {
            "paid" => return Ok(booking),
            "held" if booking.expires_at > now => {}
            _ => return Err(TravelError::Expired),
        }
        let key = format!("travel-{id}");
        let reference = match self
            .cart
            .provider
            .authorize(&key, booking.total, card)
            .await
        {
            PaymentOutcome::Approved { reference } => reference,
            PaymentOutcome::Declined => return Err(TravelError::Declined),
            PaymentOutcome::InvalidCard => return Err(TravelError::InvalidCard),
        };
        let mut w = self.cart.begin().await?;
        let claimed = store::booking::settle_held(&mut w.tx, id, member_id, "paid", now).await?;
        let row = store::booking::booking(&mut *w.tx, id)
            .await?
            .ok_or(TravelError::NoBooking)?;
        if !claimed
            || !store::booking::sell(&mut w.tx, row.duration_id, &row.day, row.places).await?
        {
            drop(w);
            self.cart.provider.void(&reference).await;
            return Err(TravelError::Expired);
        }
        let order_id: i64 = sqlx::query_scalar(
            "INSERT INTO orders (member_id, site_id, idempotency_key, status, cart_type, subtotal, discount,
                    shipping, loyalty, total, currency, payment_reference, created_at, updated_at)
             VALUES ($1, $2, $3, 'validated', 'travel', $4, 0, 0, 0, $4, $5, $6, $7, $7) RETURNING id",
        )
        .bind(member_id)
        .bind(i64::from(site_id))
        .bind(&key)
        .bind(row.total_cents)
        .bind(&row.currency)
        .bind(&reference)
        .bind(now)
        .fetch_one(&mut *w.tx)
        .await?;
        crate::orders::store::status::record_created(&mut w.tx, order_id, "validated", now).await?;
        sqlx::query("UPDATE travel_bookings SET order_id = $2 WHERE id = $1")
            .bind(id)
            .bind(order_id)
            .execute(&mut *w.tx)
            .await?;
        // One order line for the whole stay, so "My orders" shows what was booked.
        sqlx::query(
            "INSERT INTO order_items (order_id, option_id, product_id, sale_id, name, option_label, quantity, unit_price)
             SELECT $1, b.duration_id, p.id, p.sale_id, p.name,
                    c.name || ' · ' || b.day, 1, b.total_cents
               FROM travel_bookings b
               JOIN products p ON p.id = b.product_id
               JOIN travel_durations du ON du.id = b.duration_id
               JOIN travel_departure_cities c ON c.id = du.city_id
              WHERE b.id = $2",
        )
        .bind(order_id)
        .bind(id)
        .execute(&mut *w.tx)
        .await?;
        // The order's address, as a shop order has one: My orders and the invoice show it.
        let address: Option<String> =
            sqlx::query_scalar("SELECT address_json FROM travel_bookings WHERE id = $1")
                .bind(id)
                .fetch_one(&mut *w.tx)
                .await?;
        if let Some(a) = address.and_then(|j| serde_json::from_str::<DeliveryAddress>(&j).ok()) {
            address_store::copy_to_order(&mut w.tx, order_id, &a).await?;
        }
        // A booking is a paid order too: the sponsor's reward.
        crate::sponsorship::store::reward_paid_order(&mut w.tx, order_id, now).await?;
        w.commit().await?;
        self.booking(member_id, id).await
    }

    /// Gives a held booking's places back (a paid one stays: after-sales handle it).
    pub async fn cancel(&self, member_id: i64, id: i64, now: i64) -> Result<Booking, TravelError> {
        self.booking(member_id, id).await?;
        let mut w = self.cart.begin().await?;
        let mut released = None;
        if store::booking::settle_held(&mut w.tx, id, member_id, "cancelled", now).await? {
            if let Some(row) = store::booking::booking(&mut *w.tx, id).await? {
                store::booking::release(&mut w.tx, row.duration_id, &row.day, row.places).await?;
                released = Some(row.product_id);
            }
        }
        w.commit().await?;
        if let Some(product_id) = released {
            self.refresh_from_price(product_id, now).await;
        }
        self.booking(member_id, id).await
    }

    /// Releases expired holds (the background sweep and each reservation call this).
    pub async fn sweep(&self, now: i64) -> Result<u64, TravelError> {
        let mut w = self.cart.begin().await?;
        let released = store::booking::release_expired(&mut w.tx, now, 500).await?;
        w.commit().await?;
        let count = released.len() as u64;
        let mut products = released;
        products.sort_unstable();
        products.dedup();
        for product_id in products {
            self.refresh_from_price(product_id, now).await;
        }
        Ok(count)
    }

    /// The trip's stored "from" price follows its places ([`store::from_price`]). A failure
    /// is logged, not the booking's: the schedule refreshes it again.
    async fn refresh_from_price(&self, product_id: i64, now: i64) {
        if let Err(e) = store::from_price::refresh(self.db(), product_id, now).await {
            tracing::warn!(error = %e, product_id, "travel from price not refreshed");
        }
    }
}
