//! The cart and basket state transitions of spec §4.
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::*;

// ------------------------------------------------------------------ state (§4)

/// Cart state (spec §3): newItem, newLoyalty, newError, loading, error, params.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CartState {
    pub new_item: bool,
    pub new_loyalty: bool,
    pub new_error: bool,
    pub loading: bool,
    pub error: Option<String>,
    pub params: Option<Value>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum CartAction {
    /// Any cart request starts.
    Request {
        params: Option<Value>,
    },
    /// Add item or reopen cart answered with this status.
    AddItemSuccess {
        status: u16,
    },
    AddLoyaltySuccess,
    /// Freeze, defrost, recover, cancel recovery, remove: success without a flag.
    Success,
    /// Every `..._FAILED` action.
    Failure {
        error: String,
    },
}

/// Spec §4 "Cart": a request marks loading and resets the three flags; add item or
/// reopen marks newItem, except with the onboarding-redirect status (then only the error
/// is cleared); add loyalty marks newLoyalty; every failure marks newError.
pub fn reduce_cart(state: &CartState, action: &CartAction) -> CartState {
    let mut s = state.clone();
    match action {
        CartAction::Request { params } => {
            s.loading = true;
            s.new_item = false;
            s.new_loyalty = false;
            s.new_error = false;
            s.params = params.clone();
        }
        CartAction::AddItemSuccess { status } => {
            s.loading = false;
            s.error = None;
            if *status != CartCode::OnboardingRedirect.status() {
                s.new_item = true;
            }
        }
        CartAction::AddLoyaltySuccess => {
            s.loading = false;
            s.error = None;
            s.new_loyalty = true;
        }
        CartAction::Success => {
            s.loading = false;
            s.error = None;
        }
        CartAction::Failure { error } => {
            s.loading = false;
            s.error = Some(error.clone());
            s.new_error = true;
        }
    }
    s
}

/// Basket state (spec §3): expiry notices and the voucher-removal and print flags.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BasketState {
    pub has_notify_basket_expired: bool,
    pub has_notify_basket_expire_soon: bool,
    pub remaining_time: i64,
    pub is_remove_success: bool,
    pub is_remove_error: bool,
    pub print_loading: bool,
    pub print_error: bool,
    pub print_url: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum BasketAction {
    /// The basket was refreshed: the expiry notices are reset, then set from the answer.
    Refresh {
        remaining_time: i64,
        expired: bool,
    },
    RemoveVoucherPending,
    RemoveVoucherSuccess,
    RemoveVoucherFailure,
    PrintPending,
    PrintSuccess {
        print_url: String,
    },
    PrintFailure,
}

pub fn reduce_basket(state: &BasketState, action: &BasketAction) -> BasketState {
    let mut s = state.clone();
    match action {
        BasketAction::Refresh {
            remaining_time,
            expired,
        } => {
            let (soon, exp) = expiry_notices(*remaining_time, *expired);
            s.remaining_time = *remaining_time;
            s.has_notify_basket_expire_soon = soon;
            s.has_notify_basket_expired = exp;
        }
        BasketAction::RemoveVoucherPending => {
            s.is_remove_success = false;
            s.is_remove_error = false;
        }
        BasketAction::RemoveVoucherSuccess => s.is_remove_success = true,
        BasketAction::RemoveVoucherFailure => s.is_remove_error = true,
        BasketAction::PrintPending => {
            s.print_loading = true;
            s.print_error = false;
        }
        BasketAction::PrintSuccess { print_url } => {
            s.print_loading = false;
            s.print_url = Some(print_url.clone());
        }
        BasketAction::PrintFailure => {
            s.print_loading = false;
            s.print_error = true;
        }
    }
    s
}

/// Suspend state (spec §3): isSuspendedBasket, loading, error.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SuspendState {
    pub is_suspended_basket: bool,
    pub loading: bool,
    pub error: bool,
}

/// Spec §4 "Suspend basket": request sets loading and clears the error; success records
/// the suspended-order check; failure sets the error flag.
pub fn reduce_suspend(state: &SuspendState, outcome: Option<Result<bool, ()>>) -> SuspendState {
    match outcome {
        None => SuspendState {
            loading: true,
            error: false,
            ..state.clone()
        },
        Some(Ok(suspended)) => SuspendState {
            is_suspended_basket: suspended,
            loading: false,
            error: false,
        },
        Some(Err(())) => SuspendState {
            loading: false,
            error: true,
            ..state.clone()
        },
    }
}

/// (expire soon, expired) notices for a basket with `remaining` seconds of hold.
pub fn expiry_notices(remaining: i64, expired: bool) -> (bool, bool) {
    (
        !expired && remaining > 0 && remaining <= EXPIRE_SOON_SECS,
        expired,
    )
}
