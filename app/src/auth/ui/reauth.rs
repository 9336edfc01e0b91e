//! The proof a sensitive form of any area asks for (review N1): the current password inside the form,
//! or, for a member without one, "sign in again with …" beside it (its own form: a button
//! that leaves for the provider cannot be sent in place by the enhancement script).
use leptos::prelude::*;

use crate::auth::social::rules::Provider;
use crate::context::RequestCtx;
use crate::model::reauth::ReauthView;

pub use crate::auth::rules::F_CURRENT_PASSWORD as FIELD;

/// The password field, for a member who has one; nothing otherwise.
#[component]
pub fn ReauthPassword(
    reauth: ReauthView,
    /// Unique on the page: the input's id and test id.
    id: &'static str,
    /// The translated refusal to show beside it.
    error: Option<String>,
    /// When the proof is needed only in some cases (a refund to another IBAN): the hint
    /// that says which, and the field is not required.
    #[prop(optional)]
    only_when: Option<String>,
) -> impl IntoView {
    let ctx = RequestCtx::current();
    reauth.has_password.then(|| {
        let required = only_when.is_none();
        let hint = only_when.unwrap_or_else(|| ctx.t("reauth.password.hint"));
        let err_id = format!("{id}-error");
        let hint_id = format!("{id}-hint");
        let invalid = error.is_some().then_some("true");
        let no_error = error.is_none();
        view! {
            <p class="field" data-field=FIELD>
                <label for=id>{ctx.t("reauth.password.label")}</label>
                <span class="account-hint" id=hint_id.clone()>{hint}</span>
                <input id=id name=FIELD type="password" autocomplete="current-password" maxlength="256"
                    aria-invalid=invalid aria-describedby=format!("{hint_id} {err_id}") required=required
                    data-testid=format!("reauth-{id}") />
                <span class="field__error" id=err_id data-error-for=FIELD hidden=no_error
                    data-testid=format!("reauth-{id}-error")>{error}</span>
            </p>
        }
    })
}

/// For a member without a password: whether a provider sign-in still counts, or the
/// buttons to sign in again; back on `return_to` afterwards. Nothing for a member with a
/// password. Placed outside the sensitive form (forms do not nest).
#[component]
pub fn ReauthProvider(reauth: ReauthView, return_to: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    (!reauth.has_password).then(|| {
        if reauth.fresh {
            return view! {
                <p class="account-hint" data-testid="reauth-fresh">{ctx.t("reauth.social.fresh")}</p>
            }
            .into_any();
        }
        let providers: Vec<Provider> = reauth
            .providers
            .iter()
            .filter_map(|s| Provider::from_slug(s))
            .collect();
        let names = providers
            .iter()
            .map(|p| p.label())
            .collect::<Vec<_>>()
            .join(", ");
        view! {
            <form method="post" action=crate::auth::social::ui::REAUTH class="reauth-provider" data-testid="reauth-provider">
                <input type="hidden" name="_xsrf" value=ctx.xsrf.clone() />
                <input type="hidden" name="returnurl" value=return_to />
                <p class="account-hint">{ctx.t_with("reauth.social.intro", &[("provider", &names)])}</p>
                {providers.into_iter().map(|p| view! {
                    <button type="submit" name="provider" value=p.slug() class="button"
                        data-testid=format!("reauth-with-{}", p.slug())>
                        {ctx.t_with("reauth.social.button", &[("provider", p.label())])}
                    </button>
                }).collect_view()}
            </form>
        }
        .into_any()
    })
}
