//! The number of units in the member's cart, shown on the header's cart link. The server
//! puts it in the request context; the product page's add button and the cart page keep
//! it current without a reload.
use leptos::prelude::*;

use crate::model::cart::Cart;

/// The count shared by every island of the tab. In the browser it is one signal for the
/// life of the page's WASM, so it survives the in-app navigations that swap the page
/// around it; on the server each render gets its own, seeded from the request.
#[derive(Clone)]
pub struct CartCount(ArcRwSignal<i64>);

#[cfg(feature = "hydrate")]
thread_local! {
    static STORE: CartCount = CartCount(ArcRwSignal::new(
        crate::context::RequestCtx::current().cart_count.max(0),
    ));
}

impl CartCount {
    #[cfg(feature = "hydrate")]
    pub fn current() -> Option<Self> {
        Some(STORE.with(Clone::clone))
    }

    #[cfg(not(feature = "hydrate"))]
    pub fn current() -> Option<Self> {
        Some(CartCount(ArcRwSignal::new(
            crate::context::RequestCtx::current().cart_count.max(0),
        )))
    }

    pub fn get(&self) -> i64 {
        self.0.get()
    }

    /// A freshly rendered page carries the server's count: it is the truth at that moment.
    pub fn sync_with_page() {
        if let Some(c) = Self::current() {
            c.0.set(crate::context::RequestCtx::current().cart_count.max(0));
        }
    }

    /// After the cart page loaded or changed the cart.
    pub fn show(cart: &Cart) {
        if let Some(c) = Self::current() {
            c.0.set(units(cart));
        }
    }

    /// After an add from another page: the cart as the server now has it.
    pub fn refresh() {
        let Some(c) = Self::current() else {
            return;
        };
        leptos::task::spawn_local(async move {
            if let Ok(reply) = crate::client::call("GET", crate::model::cart::CART, None).await {
                if let Some(cart) = reply.json::<Cart>() {
                    c.0.set(units(&cart));
                }
            }
        });
    }
}

/// Units held in the cart (every line's quantity; the loyalty item is not an article).
pub fn units(cart: &Cart) -> i64 {
    cart.items.iter().map(|l| l.quantity.max(0)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::cart::CartLine;

    #[test]
    fn units_add_up_line_quantities() {
        let line = |q| CartLine {
            quantity: q,
            ..Default::default()
        };
        let mut cart = Cart::default();
        assert_eq!(units(&cart), 0);
        cart.items = vec![line(2), line(1)];
        assert_eq!(units(&cart), 3);
    }
}
