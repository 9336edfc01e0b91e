//! `/myaccount/memberdata`: personal data (gender, names, birth date, phone, job), the
//! email change (a link to the new address; `?confirmemail=` opens the confirming step)
//! and the password change. Every form posts without scripts and comes back filled in with
//! its messages when refused; with the enhancement script the answer replaces the page's
//! region in place, and a confirmation opens as a modal.
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use super::draft::{self, Draft};
use super::frame::{form_action, open_dialog, DoneDialog, FormBase, ProfileFrame, Tab, TextField};
use crate::account::api::fetch_account;
use crate::account::model::AccountView;
use crate::account::rules::*;
use crate::auth::api::fetch_reauth;
use crate::auth::ui::reauth::{ReauthPassword, ReauthProvider, FIELD};
use crate::context::RequestCtx;
use crate::model::reauth::ReauthView;
use crate::text::keys::KeyFilter;
use crate::ui::error_template::ErrorNotice;

/// Where "sign in again with …" comes back to.
const PAGE: &str = "/myaccount/memberdata";

#[component]
pub fn PersonalDataPage(path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let confirm = use_query_map()
        .get_untracked()
        .get("confirmemail")
        .filter(|c| c.len() == 32 && c.bytes().all(|b| b.is_ascii_hexdigit()));
    let load = Resource::new(|| (), |_| fetch_account());
    let reauth = Resource::new(|| (), |_| fetch_reauth());
    let draft = draft::read();
    let dialog = open_dialog();
    view! {
        <ProfileFrame page="personal" title=ctx.t("page.personaldata") path tab=Tab::Manage>
            {confirm.map(|cypher| view! { <ConfirmEmail cypher /> })}
            <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
                {
                    let draft = draft.clone();
                    move || {
                        let draft = draft.clone();
                        let email_sent = dialog.as_deref() == Some("email");
                        let password_changed = dialog.as_deref() == Some("password");
                        Suspend::new(async move {
                            match (load.await, reauth.await) {
                                (Ok(v), Ok(r)) => view! {
                                    <Profile view=v.clone() draft=draft.clone() />
                                    <Email view=v reauth=r.clone() draft=draft.clone() sent=email_sent />
                                    <Password draft changed=password_changed reauth=r />
                                    <crate::auth::social::ui::LinkedAccounts />
                                }.into_any(),
                                _ => view! { <ErrorNotice /> }.into_any(),
                            }
                        })
                    }
                }
            </Suspense>
        </ProfileFrame>
    }
}

#[component]
fn ConfirmEmail(cypher: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    view! {
        <section class="account-section" aria-labelledby="confirm-email-title">
            <h2 id="confirm-email-title">{ctx.t("myprofile.email.confirm.title")}</h2>
            <form method="post" action=form_action("confirm_email") class="account-form" data-enhance="" data-testid="confirm-email-form">
                <FormBase />
                <input type="hidden" name="cypher" value=cypher />
                <button type="submit" class="button button--primary">{ctx.t("myprofile.email.confirm.submit")}</button>
            </form>
        </section>
    }
}

/// The form's general message when the draft refused it.
/// Above a form sent back with field errors: that there are some, each said by its field
/// (not the general "an error occurred, try again", which read as a failure of the shop
/// above the field's own message).
fn form_error(draft: &Draft, form: &str, key: &str) -> impl IntoView {
    let ctx = RequestCtx::current();
    let shown = draft.has_errors(form);
    view! {
        <p class="account-form__error" role="alert" data-form-error="" hidden=!shown data-enhance-focus=shown.then_some("")>
            {shown.then(|| ctx.t(key))}
        </p>
    }
}

#[component]
fn Profile(view: AccountView, draft: Draft) -> impl IntoView {
    let ctx = RequestCtx::current();
    let p = view.profile;
    let value = |name: &str, stored: &str| {
        draft
            .value("profile", name)
            .unwrap_or_else(|| stored.to_string())
    };
    let error = |field: &str| draft.error("profile", field).map(|k| ctx.t(&k));
    let gender = draft
        .value("profile", "gender")
        .unwrap_or_else(|| p.gender.wire().to_string());
    let job = draft
        .value("profile", "jobId")
        .unwrap_or_else(|| p.job_id.map(|j| j.to_string()).unwrap_or_default());
    let gender_error = error(F_GENDER);
    let job_error = error(F_JOB);
    let no_gender_error = gender_error.is_none();
    let no_job_error = job_error.is_none();
    let required = view.birth_date_required;
    view! {
        <section class="account-section" aria-labelledby="profile-title">
            <h2 id="profile-title">{ctx.t("myprofile.personaldata.title")}</h2>
            <form method="post" action=form_action("profile") class="account-form" novalidate data-enhance="" data-testid="profile-form">
                <FormBase />
                {form_error(&draft, "profile", "myprofile.errors.fields")}
                <fieldset data-field=F_GENDER aria-describedby="gender-error">
                    <legend>{ctx.t("myprofile.gender")}</legend>
                    <div class="profile-radios">
                        {Gender::ALL.into_iter().map(|g| {
                            let ctx = RequestCtx::current();
                            let id = format!("gender-{}", g.wire().to_ascii_lowercase());
                            view! {
                                <span class="field field--check">
                                    <input type="radio" id=id.clone() name="gender" value=g.wire() checked=gender == g.wire() data-testid=id.clone() />
                                    <label for=id>{ctx.t(g.label_key())}</label>
                                </span>
                            }
                        }).collect_view()}
                    </div>
                    <span class="field__error" id="gender-error" data-error-for=F_GENDER hidden=no_gender_error>{gender_error}</span>
                </fieldset>
                <TextField id="profile-first-name" name="firstName" field=F_NAME label=ctx.t("myprofile.first_name")
                    value=value("firstName", &p.first_name) error=error(F_NAME) autocomplete="given-name" maxlength="60" filter=KeyFilter::Name required=true />
                <TextField id="profile-last-name" name="lastName" field=F_LAST_NAME label=ctx.t("myprofile.last_name")
                    value=value("lastName", &p.last_name) error=error(F_LAST_NAME) autocomplete="family-name" maxlength="60" filter=KeyFilter::Name required=true />
                <TextField id="profile-birth-date" name="birthDate" field=F_BIRTH_DATE label=ctx.t("myprofile.birth_date")
                    value=value("birthDate", &p.birth_date) error=error(F_BIRTH_DATE) autocomplete="bday" maxlength="10" filter=KeyFilter::Date
                    inputmode="numeric" hint=ctx.t("myprofile.birth_date.hint") required=required />
                <TextField id="profile-phone" name="phone" field=F_PHONE label=ctx.t("myprofile.phone")
                    value=value("phone", &p.phone) error=error(F_PHONE) kind="tel" autocomplete="tel" maxlength="15" filter=KeyFilter::Digits
                    inputmode="numeric" hint=ctx.t("myprofile.phone.hint") />
                <p class="field" data-field=F_JOB>
                    <label for="profile-job">{ctx.t("myprofile.job")}</label>
                    <select id="profile-job" name="jobId" aria-describedby="job-error" data-testid="field-jobId">
                        <option value="" selected=job.is_empty()>{ctx.t("myprofile.job.none")}</option>
                        {view.jobs.into_iter().map(|j| {
                            let id = j.id.to_string();
                            let selected = id == job;
                            view! { <option value=id selected=selected>{j.title}</option> }
                        }).collect_view()}
                    </select>
                    <span class="field__error" id="job-error" data-error-for=F_JOB hidden=no_job_error>{job_error}</span>
                </p>
                <button type="submit" class="button button--primary" data-testid="profile-save">{ctx.t("myprofile.save")}</button>
            </form>
        </section>
    }
}

#[component]
fn Email(view: AccountView, reauth: ReauthView, draft: Draft, sent: bool) -> impl IntoView {
    let ctx = RequestCtx::current();
    let p = view.profile;
    let error = |field: &str| draft.error("email", field).map(|k| ctx.t(&k));
    let pending = p.pending_email.clone();
    let no_pending = pending.is_none();
    view! {
        <section class="account-section" aria-labelledby="email-title">
            <h2 id="email-title">{ctx.t("myprofile.email.title")}</h2>
            <p data-testid="current-email">{ctx.t_with("account.manage.email", &[("email", &p.email)])}</p>
            <p class="account-hint" data-testid="pending-email" hidden=no_pending>
                {pending.map(|e| ctx.t_with("myprofile.email.pending", &[("email", &e)]))}
            </p>
            <ReauthProvider reauth=reauth.clone() return_to=PAGE.to_string() />
            <form method="post" action=form_action("email") class="account-form" novalidate data-enhance="" data-testid="email-form">
                <FormBase />
                {form_error(&draft, "email", "myprofile.errors.fields")}
                <TextField id="email-new" name="Email" field=F_NEW_MAIL label=ctx.t("myprofile.email.new")
                    value=draft.value("email", "Email").unwrap_or_default() error=error(F_NEW_MAIL) kind="email" autocomplete="email" maxlength="254" required=true />
                <TextField id="email-confirm" name="ConfirmEmail" field=F_CONFIRM_EMAIL label=ctx.t("myprofile.email.confirm")
                    value=draft.value("email", "ConfirmEmail").unwrap_or_default() error=error(F_CONFIRM_EMAIL) kind="email" autocomplete="email" maxlength="254" required=true />
                <ReauthPassword reauth id="email-reauth" error=error(FIELD) />
                <button type="submit" class="button button--primary" data-testid="email-save">{ctx.t("myprofile.email.save")}</button>
            </form>
            <DoneDialog id="email-dialog" open=sent
                title=ctx.t("myprofile.email.notification") body=ctx.t("myprofile.email.sent") />
        </section>
    }
}

#[component]
fn Password(draft: Draft, changed: bool, reauth: ReauthView) -> impl IntoView {
    let ctx = RequestCtx::current();
    let error = |field: &str| draft.error("password", field).map(|k| ctx.t(&k));
    let code_key = draft
        .errors
        .iter()
        .find(|(f, _)| f == "code")
        .map(|(_, k)| k.clone())
        .unwrap_or_else(|| "errors.general_retry.notification".into());
    let shown = draft.has_errors("password");
    view! {
        <section class="account-section" aria-labelledby="password-title">
            <h2 id="password-title">{ctx.t("myprofile.password.title")}</h2>
            // Refused: the passwords are never sent back, but what the member typed stays in
            // the fields with the script (`data-enhance-keep`).
            <form method="post" action=form_action("password") class="account-form" novalidate data-enhance=""
                data-enhance-keep=shown.then_some("") data-testid="password-form">
                <FormBase />
                <p class="account-form__error" role="alert" data-form-error="" hidden=!shown data-enhance-focus=shown.then_some("")>{shown.then(|| ctx.t(&code_key))}</p>
                <TextField id="password-current" name="currentPassword" field=F_CURRENT_PASSWORD label=ctx.t("myprofile.password.current")
                    value=String::new() error=error(F_CURRENT_PASSWORD) kind="password" autocomplete="current-password" maxlength="256" required=true />
                <TextField id="password-new" name="password" field=F_PASSWORD label=ctx.t("myprofile.password.new")
                    value=String::new() error=error(F_PASSWORD) kind="password" autocomplete="new-password" maxlength="256"
                    hint=ctx.t("auth.password.rules") required=true />
                <TextField id="password-confirm" name="confirmPassword" field=F_CONFIRM_PASSWORD label=ctx.t("myprofile.password.confirm")
                    value=String::new() error=error(F_CONFIRM_PASSWORD) kind="password" autocomplete="new-password" maxlength="256" required=true />
                <button type="submit" class="button button--primary" data-testid="password-save">{ctx.t("myprofile.password.save")}</button>
            </form>
            <DoneDialog id="password-dialog" open=changed
                title=ctx.t("myprofile.password.notification") body=ctx.t("myprofile.password.sessions_ended") />
        </section>
        <OtherSessions reauth draft />
    }
}

/// "Sign out everywhere else" (review L11): a plain form, without scripts too; every other
/// session of the member ends, this one stays.
#[component]
fn OtherSessions(reauth: ReauthView, draft: Draft) -> impl IntoView {
    let ctx = RequestCtx::current();
    let error = draft.error("sessions", FIELD).map(|k| ctx.t(&k));
    view! {
        <section class="account-section" aria-labelledby="sessions-title">
            <h2 id="sessions-title">{ctx.t("myprofile.sessions.title")}</h2>
            <ReauthProvider reauth=reauth.clone() return_to=PAGE.to_string() />
            <form method="post" action=form_action("end_sessions") class="account-form" novalidate data-enhance="" data-testid="end-sessions-form">
                <FormBase />
                <p id="sessions-hint">{ctx.t("myprofile.sessions.hint")}</p>
                <ReauthPassword reauth id="sessions-reauth" error />
                <button type="submit" class="button" aria-describedby="sessions-hint" data-testid="end-sessions">{ctx.t("myprofile.sessions.end")}</button>
            </form>
        </section>
    }
}
