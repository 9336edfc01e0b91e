//! A small OpenID Connect provider for tests and the local demo: never the internet.
//! It signs real RS256 ID tokens with a key generated at start, serves its discovery
//! document and JWKS, shows a tiny page to enter the test user's email at `/authorize`
//! and redirects back with a code; `/token` checks the client's credentials, the
//! redirect URI and the PKCE verifier (S256), and answers once per code (codes expire
//! after a minute). Test switches in the email's local part: `+expired` issues an expired
//! ID token, `+forged` signs it with another key, `+unverified` sets `email_verified`
//! false, `+stale` dates `auth_time` an hour back. Run it with `cargo run -p server --bin test_idp` (see `src/bin/test_idp.rs`).
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Form, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use rsa::pkcs1v15::SigningKey;
use rsa::sha2::{Digest, Sha256};
use rsa::signature::{SignatureEncoding, Signer};
use rsa::traits::PublicKeyParts;
use rsa::RsaPrivateKey;
use serde::Deserialize;
use serde_json::json;

/// The clients it knows: (client id, client secret).
pub type Clients = Vec<(String, String)>;

struct Grant {
    client_id: String,
    redirect_uri: String,
    nonce: Option<String>,
    challenge: String,
    email: String,
    given_name: String,
    family_name: String,
    expires_at: i64,
    /// When the test user submitted the sign-in page (`auth_time`).
    auth_time: i64,
}

pub struct Idp {
    issuer: String,
    key: RsaPrivateKey,
    /// A second key, for the `+forged` switch: same `kid`, another signer.
    other: RsaPrivateKey,
    clients: Clients,
    codes: Mutex<HashMap<String, Grant>>,
}

const KID: &str = "rosace-test-1";

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

fn random() -> String {
    let b: [u8; 24] = rand::random();
    URL_SAFE_NO_PAD.encode(b)
}

impl Idp {
    pub fn new(issuer: &str, clients: Clients) -> Idp {
        let mut rng = rand::rngs::OsRng;
        let key = RsaPrivateKey::new(&mut rng, 2048).expect("RSA key");
        let other = RsaPrivateKey::new(&mut rng, 2048).expect("RSA key");
        Idp {
            issuer: issuer.trim_end_matches('/').to_string(),
            key,
            other,
            clients,
            codes: Mutex::new(HashMap::new()),
        }
    }

    fn sign(&self, claims: &serde_json::Value, forged: bool) -> String {
        let header = json!({"alg": "RS256", "typ": "JWT", "kid": KID});
        let input = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(header.to_string()),
            URL_SAFE_NO_PAD.encode(claims.to_string())
        );
        let key = if forged { &self.other } else { &self.key };
        let sig = SigningKey::<Sha256>::new(key.clone()).sign(input.as_bytes());
        format!("{input}.{}", URL_SAFE_NO_PAD.encode(sig.to_bytes()))
    }
}

/// The provider's routes; `issuer` is the URL it is served at.
pub fn router(idp: Arc<Idp>) -> Router {
    Router::new()
        .route("/.well-known/openid-configuration", get(discovery))
        .route("/jwks", get(jwks))
        .route("/authorize", get(authorize_page).post(authorize))
        .route("/token", post(token))
        .with_state(idp)
}

/// Binds a free loopback port and serves a new provider there; its issuer URL.
pub async fn spawn(clients: Clients) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let issuer = format!("http://{}", listener.local_addr().expect("address"));
    let idp = Arc::new(Idp::new(&issuer, clients));
    tokio::spawn(async move {
        let _ = axum::serve(listener, router(idp)).await;
    });
    issuer
}

async fn discovery(State(idp): State<Arc<Idp>>) -> Json<serde_json::Value> {
    let i = &idp.issuer;
    Json(json!({
        "issuer": i,
        "authorization_endpoint": format!("{i}/authorize"),
        "token_endpoint": format!("{i}/token"),
        "jwks_uri": format!("{i}/jwks"),
        "response_types_supported": ["code"],
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["RS256"],
        "scopes_supported": ["openid", "email", "profile", "name"],
        "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
        "code_challenge_methods_supported": ["S256"],
        "claims_supported": ["sub", "email", "email_verified", "given_name", "family_name"],
    }))
}

async fn jwks(State(idp): State<Arc<Idp>>) -> Json<serde_json::Value> {
    let pk = idp.key.to_public_key();
    Json(json!({"keys": [{
        "kty": "RSA", "use": "sig", "alg": "RS256", "kid": KID,
        "n": URL_SAFE_NO_PAD.encode(pk.n().to_bytes_be()),
        "e": URL_SAFE_NO_PAD.encode(pk.e().to_bytes_be()),
    }]}))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct AuthorizeParams {
    client_id: String,
    redirect_uri: String,
    state: String,
    nonce: String,
    code_challenge: String,
    code_challenge_method: String,
    response_type: String,
    response_mode: String,
    email: String,
    given_name: String,
    family_name: String,
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The sign-in page of the test provider: the test user's email (and names).
async fn authorize_page(Query(p): Query<AuthorizeParams>) -> Response {
    if p.response_type != "code" || p.code_challenge_method != "S256" || p.code_challenge.is_empty()
    {
        return (
            StatusCode::BAD_REQUEST,
            "response_type=code with PKCE S256 required",
        )
            .into_response();
    }
    let hidden: String = [
        ("client_id", &p.client_id),
        ("redirect_uri", &p.redirect_uri),
        ("state", &p.state),
        ("nonce", &p.nonce),
        ("code_challenge", &p.code_challenge),
        ("code_challenge_method", &p.code_challenge_method),
        ("response_type", &p.response_type),
        ("response_mode", &p.response_mode),
    ]
    .iter()
    .map(|(k, v)| {
        format!(
            "<input type=\"hidden\" name=\"{k}\" value=\"{}\">",
            escape(v)
        )
    })
    .collect();
    Html(format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Test identity provider</title></head>\
         <body><main><h1>Test identity provider</h1><form method=\"post\" action=\"/authorize\">{hidden}\
         <p><label for=\"email\">Email</label> <input id=\"email\" name=\"email\" type=\"email\" required></p>\
         <p><label for=\"given_name\">Given name</label> <input id=\"given_name\" name=\"given_name\" value=\"Test\"></p>\
         <p><label for=\"family_name\">Family name</label> <input id=\"family_name\" name=\"family_name\" value=\"User\"></p>\
         <button type=\"submit\">Sign in</button></form></main></body></html>"
    ))
    .into_response()
}

/// The test user signed in: a code (one minute, single use) back to the client.
async fn authorize(State(idp): State<Arc<Idp>>, Form(p): Form<AuthorizeParams>) -> Response {
    if !idp.clients.iter().any(|(id, _)| *id == p.client_id) || p.redirect_uri.is_empty() {
        return (StatusCode::BAD_REQUEST, "unknown client").into_response();
    }
    if p.email.trim().is_empty() || p.code_challenge.is_empty() {
        return (StatusCode::BAD_REQUEST, "email and PKCE required").into_response();
    }
    let code = random();
    let redirect = format!(
        "{}{}code={}&state={}",
        p.redirect_uri,
        if p.redirect_uri.contains('?') {
            '&'
        } else {
            '?'
        },
        code,
        app::routes::encode_query_value(&p.state)
    );
    if let Ok(mut codes) = idp.codes.lock() {
        codes.insert(
            code,
            Grant {
                client_id: p.client_id,
                redirect_uri: p.redirect_uri,
                nonce: (!p.nonce.is_empty()).then_some(p.nonce),
                challenge: p.code_challenge,
                email: p.email.trim().to_string(),
                given_name: p.given_name,
                family_name: p.family_name,
                expires_at: now() + 60,
                auth_time: now(),
            },
        );
    }
    (StatusCode::FOUND, [(header::LOCATION, redirect)]).into_response()
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct TokenParams {
    grant_type: String,
    code: String,
    redirect_uri: String,
    code_verifier: String,
    client_id: String,
    client_secret: String,
}

fn token_error(what: &str) -> Response {
    (StatusCode::BAD_REQUEST, Json(json!({"error": what}))).into_response()
}

async fn token(
    State(idp): State<Arc<Idp>>,
    headers: axum::http::HeaderMap,
    Form(t): Form<TokenParams>,
) -> Response {
    // Client authentication: HTTP Basic (form-urlencoded id and secret) or the body.
    let basic = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Basic "))
        .and_then(|b| STANDARD.decode(b).ok())
        .and_then(|b| String::from_utf8(b).ok())
        .and_then(|s| {
            let (id, secret) = s.split_once(':')?;
            let dec = |v: &str| {
                serde_urlencoded::from_str::<Vec<(String, String)>>(&format!("v={v}"))
                    .ok()?
                    .pop()
                    .map(|(_, v)| v)
            };
            Some((dec(id)?, dec(secret)?))
        });
    let (id, secret) = basic.unwrap_or((t.client_id.clone(), t.client_secret.clone()));
    if !idp.clients.iter().any(|(i, s)| *i == id && *s == secret) {
        return (
            StatusCode::UNAUTHORIZED,
            Json(json!({"error": "invalid_client"})),
        )
            .into_response();
    }
    if t.grant_type != "authorization_code" {
        return token_error("unsupported_grant_type");
    }
    // Single use: the code is gone whatever follows.
    let grant = idp.codes.lock().ok().and_then(|mut c| c.remove(&t.code));
    let Some(g) = grant else {
        return token_error("invalid_grant");
    };
    let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(t.code_verifier.as_bytes()));
    if g.expires_at < now()
        || g.client_id != id
        || g.redirect_uri != t.redirect_uri
        || challenge != g.challenge
    {
        return token_error("invalid_grant");
    }
    let local = g.email.split('@').next().unwrap_or("");
    let iat = now();
    let exp = if local.contains("+expired") {
        iat - 600
    } else {
        iat + 300
    };
    let sub = format!(
        "test-{}",
        &URL_SAFE_NO_PAD.encode(Sha256::digest(
            // `+stale` is the same person as without it.
            g.email
                .to_ascii_lowercase()
                .replace("+stale", "")
                .as_bytes()
        ))[..22]
    );
    // `+stale`: the person was checked an hour ago (a re-authentication must refuse it).
    let auth_time = if local.contains("+stale") {
        g.auth_time - 3600
    } else {
        g.auth_time
    };
    let mut claims = json!({
        "iss": idp.issuer, "sub": sub, "aud": g.client_id, "iat": iat, "exp": exp,
        "auth_time": auth_time,
        "email": g.email, "email_verified": !local.contains("+unverified"),
        "given_name": g.given_name, "family_name": g.family_name,
    });
    if let Some(n) = g.nonce {
        claims["nonce"] = json!(n);
    }
    let id_token = idp.sign(&claims, local.contains("+forged"));
    Json(json!({
        "access_token": random(), "token_type": "Bearer", "expires_in": 300, "id_token": id_token,
    }))
    .into_response()
}
