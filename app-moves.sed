# Paths of the app crate that moved (branch app-slices). Apply to the server with:
#   find server -name '*.rs' | xargs sed -i -f app-moves.sed
# Every line is path-based and idempotent: no replacement contains its own pattern,
# and no later line matches an earlier line's result.
# -- platform/ (ssr-only infrastructure)
s|\bapp::db\b|app::platform::db|g
s|\bapp::session\b|app::platform::session|g
s|\bapp::csrf\b|app::platform::csrf|g
s|\bapp::mail\b|app::platform::mail|g
s|\bapp::password\b|app::platform::password|g
s|\bapp::ratelimit\b|app::platform::ratelimit|g
s|\bapp::state\b|app::platform::state|g
# -- text/ (pure text rules)
s|\bapp::validation::slug\b|app::text::slug::slug|g
s|\bapp::validation::is_valid_email\b|app::text::email::is_valid_email|g
s|\bapp::sanitize\b|app::text::sanitize|g
# -- the browser fetch client
s|\bapp::http\b|app::client|g
# -- wire types into model/
s|\bapp::onboarding::OnboardingView\b|app::model::onboarding::OnboardingView|g
# -- error enums into <area>/error.rs (Failure renamed CartFailure)
s|\bapp::auth::service::{self, AuthError}|app::auth::{error::AuthError, service}|g
s|\bapp::auth::service::AuthError\b|app::auth::error::AuthError|g
s|\bapp::dsa::service::{self, DsaError, Upload}|app::dsa::{error::DsaError, service::{self, Upload}}|g
s|\bapp::dsa::service::DsaError\b|app::dsa::error::DsaError|g
s|\bapp::cart::service::{AddLine, AddOptions, Failure, Member}|app::cart::{error::CartFailure, service::{AddLine, AddOptions, Member}}|g
s|\bapp::cart::service::Failure\b|app::cart::error::CartFailure|g
# -- the search engine is server-only; the browser's limit lives in search::rules
s|\bapp::search::index::MAX_QUERY_CHARS\b|app::search::rules::MAX_QUERY_CHARS|g
# -- the cart settings live beside their area
s|\bapp::cart::service::CartSettings\b|app::cart::settings::CartSettings|g
