//! The OpenID Connect client of social sign-in, with `openidconnect`: discovery (cached),
//! the authorization request (PKCE S256, `state`, `nonce`) and the code exchange whose ID
//! token is verified (signature against the provider's JWKS, issuer, audience, expiry,
//! nonce). Providers come from the environment; one without all three variables is off.
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use openidconnect::core::{
    CoreAuthPrompt, CoreAuthenticationFlow, CoreClient, CoreProviderMetadata,
};
use openidconnect::{
    AuthorizationCode, ClientId, ClientSecret, CsrfToken, IssuerUrl, Nonce, PkceCodeChallenge,
    PkceCodeVerifier, RedirectUrl, Scope, TokenResponse,
};

use app::auth::social::rules::Provider;
use app::auth::social::service::Identity;

/// One provider's client registration.
#[derive(Clone, Debug)]
pub struct ProviderConfig {
    pub provider: Provider,
    pub issuer: String,
    pub client_id: String,
    pub client_secret: String,
}

/// The configured providers (`ROSACE_OIDC_<PROVIDER>_ISSUER`, `_CLIENT_ID`,
/// `_CLIENT_SECRET`, PROVIDER one of GOOGLE, FACEBOOK, APPLE, KLARNA) and a cache of their
/// discovery documents and keys.
#[derive(Clone, Default)]
pub struct SocialConfig {
    pub providers: Vec<ProviderConfig>,
    cache: Arc<Mutex<HashMap<Provider, (Instant, CoreProviderMetadata)>>>,
}

impl std::fmt::Debug for SocialConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the secrets.
        let names: Vec<_> = self.providers.iter().map(|p| p.provider.slug()).collect();
        f.debug_struct("SocialConfig")
            .field("providers", &names)
            .finish()
    }
}

/// How long a provider's discovery document and keys are reused; a signature that does
/// not verify also refreshes them once (key rotation).
const METADATA_TTL: Duration = Duration::from_secs(3600);

impl SocialConfig {
    pub fn from_vars(vars: &dyn Fn(&str) -> Option<String>) -> SocialConfig {
        let providers = Provider::ALL
            .into_iter()
            .filter_map(|provider| {
                let name = provider.slug().to_ascii_uppercase();
                let var = |k: &str| {
                    vars(&format!("ROSACE_OIDC_{name}_{k}"))
                        .map(|v| v.trim().to_string())
                        .filter(|v| !v.is_empty())
                };
                Some(ProviderConfig {
                    provider,
                    issuer: var("ISSUER")?,
                    client_id: var("CLIENT_ID")?,
                    client_secret: var("CLIENT_SECRET")?,
                })
            })
            .collect();
        SocialConfig {
            providers,
            cache: Default::default(),
        }
    }

    pub fn enabled(&self) -> Vec<Provider> {
        self.providers.iter().map(|p| p.provider).collect()
    }

    pub fn get(&self, provider: Provider) -> Option<&ProviderConfig> {
        self.providers.iter().find(|p| p.provider == provider)
    }

    async fn metadata(
        &self,
        p: &ProviderConfig,
        fresh: bool,
    ) -> Result<CoreProviderMetadata, String> {
        if !fresh {
            if let Some((at, m)) = self
                .cache
                .lock()
                .ok()
                .and_then(|c| c.get(&p.provider).cloned())
            {
                if at.elapsed() < METADATA_TTL {
                    return Ok(m);
                }
            }
        }
        let issuer = IssuerUrl::new(p.issuer.clone()).map_err(|e| e.to_string())?;
        let m = CoreProviderMetadata::discover_async(issuer, http())
            .await
            .map_err(|e| format!("discovery: {e}"))?;
        if let Ok(mut c) = self.cache.lock() {
            c.insert(p.provider, (Instant::now(), m.clone()));
        }
        Ok(m)
    }
}

/// The HTTP client for the providers: no redirects followed (SSRF), short timeouts.
fn http() -> &'static openidconnect::reqwest::Client {
    static CLIENT: OnceLock<openidconnect::reqwest::Client> = OnceLock::new();
    CLIENT.get_or_init(|| {
        openidconnect::reqwest::Client::builder()
            .redirect(openidconnect::reqwest::redirect::Policy::none())
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(10))
            .build()
            .unwrap_or_default()
    })
}

/// A new authorization request: where to send the visitor, and the secrets to keep.
pub struct Authorization {
    pub url: String,
    pub state: String,
    pub nonce: String,
    pub pkce_verifier: String,
}

/// `fresh_check`: the provider must check the person now (`prompt=login`, `max_age=0`),
/// for a re-authentication; the ID token's `auth_time` then says when it did.
pub async fn authorize(
    cfg: &SocialConfig,
    p: &ProviderConfig,
    redirect_uri: &str,
    fresh_check: bool,
) -> Result<Authorization, String> {
    let metadata = cfg.metadata(p, false).await?;
    let client = CoreClient::from_provider_metadata(
        metadata,
        ClientId::new(p.client_id.clone()),
        Some(ClientSecret::new(p.client_secret.clone())),
    )
    .set_redirect_uri(RedirectUrl::new(redirect_uri.to_string()).map_err(|e| e.to_string())?);
    let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
    let mut req = client
        .authorize_url(
            CoreAuthenticationFlow::AuthorizationCode,
            CsrfToken::new_random,
            Nonce::new_random,
        )
        .add_scope(Scope::new("email".into()))
        .set_pkce_challenge(challenge);
    req = match p.provider {
        // Apple knows `name`, not `profile`, and answers these scopes with a form post
        // (accepted by the callback, which turns it into a GET of itself).
        Provider::Apple => req
            .add_scope(Scope::new("name".into()))
            .add_extra_param("response_mode", "form_post"),
        _ => req.add_scope(Scope::new("profile".into())),
    };
    if fresh_check {
        req = req
            .add_prompt(CoreAuthPrompt::Login)
            .set_max_age(Duration::from_secs(0));
    }
    let (url, state, nonce) = req.url();
    Ok(Authorization {
        url: url.to_string(),
        state: state.secret().clone(),
        nonce: nonce.secret().clone(),
        pkce_verifier: verifier.secret().clone(),
    })
}

/// Exchanges a code (with its PKCE verifier) and verifies the ID token and its nonce.
pub async fn finish(
    cfg: &SocialConfig,
    p: &ProviderConfig,
    redirect_uri: &str,
    code: &str,
    pkce_verifier: &str,
    nonce: &str,
) -> Result<Identity, String> {
    let metadata = cfg.metadata(p, false).await?;
    let client = CoreClient::from_provider_metadata(
        metadata,
        ClientId::new(p.client_id.clone()),
        Some(ClientSecret::new(p.client_secret.clone())),
    )
    .set_redirect_uri(RedirectUrl::new(redirect_uri.to_string()).map_err(|e| e.to_string())?);
    let response = client
        .exchange_code(AuthorizationCode::new(code.to_string()))
        .map_err(|e| e.to_string())?
        .set_pkce_verifier(PkceCodeVerifier::new(pkce_verifier.to_string()))
        .request_async(http())
        .await
        .map_err(|e| format!("token endpoint: {e}"))?;
    let id_token = response.id_token().ok_or("no ID token")?;
    let nonce = Nonce::new(nonce.to_string());
    let claims = match id_token.claims(&client.id_token_verifier(), &nonce) {
        Ok(c) => c.clone(),
        Err(first) => {
            // The provider may have rotated its keys: fetch them again, check once more.
            let fresh = cfg.metadata(p, true).await?;
            let client = CoreClient::from_provider_metadata(
                fresh,
                ClientId::new(p.client_id.clone()),
                Some(ClientSecret::new(p.client_secret.clone())),
            );
            let verifier = client.id_token_verifier();
            let claims = id_token
                .claims(&verifier, &nonce)
                .map_err(|e| format!("ID token: {first}; after refresh: {e}"))?
                .clone();
            claims
        }
    };
    let name = |c: Option<String>| c.unwrap_or_default();
    Ok(Identity {
        subject: claims.subject().as_str().to_string(),
        email: claims.email().map(|e| e.as_str().to_string()),
        email_verified: claims.email_verified().unwrap_or(false),
        given_name: name(
            claims
                .given_name()
                .and_then(|n| n.get(None))
                .map(|n| n.as_str().to_string()),
        ),
        family_name: name(
            claims
                .family_name()
                .and_then(|n| n.get(None))
                .map(|n| n.as_str().to_string()),
        ),
        auth_time: claims.auth_time().map(|t| t.timestamp()),
    })
}
