//! The map beside the offers: the `<travel-map>` custom element (React, the `travel-map` widget) with
//! the listed offers as pins. `frontend-react/src/pages/travel-offers.ts` ties pins and cards together:
//! hovering or focusing a card highlights its pin (the element's `highlighted`), and the
//! element's `travel-map-highlight` event marks the card (`trv-card--highlighted`,
//! `aria-current`). The element renders its pins from its attributes alone.
use leptos::prelude::*;

use crate::model::travel::MapOffer;

use super::MAP_ID;

/// The map element with its pins.
#[component]
pub fn OfferMap(offers: Vec<MapOffer>, label: String) -> impl IntoView {
    #[cfg(feature = "ssr")]
    crate::site::i18n::Widget::TravelMap.rendered();
    let json = serde_json::to_string(&offers).unwrap_or_else(|_| "[]".into());
    view! {
        <travel-map id=MAP_ID class="trv-map" offers=json label=label data-testid="travel-map"></travel-map>
    }
}
