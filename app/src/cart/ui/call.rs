//! The cart screens' calls to the cart REST API of spec §7, and what they show of a reply.
use crate::client::{self, CallError, Reply};

pub use crate::model::cart::{CART, PIPE};

/// A cart call; an authorization failure sends the member to sign in.
pub async fn cart_call(
    method: &str,
    url: &str,
    body: Option<serde_json::Value>,
) -> Result<Reply, CallError> {
    let result = client::call(method, url, body.map(|b| b.to_string())).await;
    match &result {
        Err(CallError::Unauthorized) => client::to_sign_in(),
        // The console names the failure as the cart helper of spec §8 does (the browser
        // does not keep the status text for us, so it is left out).
        Err(CallError::Status(status, body)) => leptos::logging::warn!(
            "Cart call {method} {url} failed: {}",
            crate::cart::rules::error_name(*status, "", &body.error_code)
        ),
        _ => {}
    }
    result
}

/// The cart's state codes 260–263 (expired, frozen, reopen, onboarding redirect) come
/// with a 2xx status and the error body: the message to show, if any.
pub fn state_notice(reply: &Reply) -> Option<String> {
    (260..=263).contains(&reply.status).then(|| {
        reply
            .json::<client::ErrorBody>()
            .map(|b| b.error_description)
            .filter(|d| !d.is_empty())
            .unwrap_or_else(|| "errors.general_retry.notification".into())
    })
}

/// `mm:ss` (or `h:mm:ss`) of a hold's remaining seconds.
pub fn clock(secs: i64) -> String {
    let s = secs.max(0);
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s % 3600 / 60, s % 60)
    } else {
        format!("{:02}:{:02}", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn clock_formats_remaining_time() {
        assert_eq!(super::clock(0), "00:00");
        assert_eq!(super::clock(-5), "00:00");
        assert_eq!(super::clock(61), "01:01");
        assert_eq!(super::clock(899), "14:59");
        assert_eq!(super::clock(3_725), "1:02:05");
    }
}
