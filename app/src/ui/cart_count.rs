//! The number of units in the member's cart, shown on the header's cart link. The server
//! puts it in the request context; the product page's add button and the cart page keep
//! it current without a reload.
use leptos::prelude::*;

use crate::model::cart::Cart;

#[derive(Clone, Copy)]
pub struct CartCount(RwSignal<i64>);

impl CartCount {
    pub fn provide(initial: i64) {
        provide_context(CartCount(RwSignal::new(initial.max(0))));
    }

    pub fn current() -> Option<Self> {
        use_context::<CartCount>()
    }

    pub fn get(self) -> i64 {
        self.0.get()
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
