//! The stepwise sign-in screens (spec 000 §2, §4): email first, then password or
//! registration; recovery, new password and activation. Plain HTML forms posting to
//! `/gr/authentication/form` (Post/Redirect/Get), so they work before the WASM app loads.
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use super::consent::consent_checks_as;
use crate::auth::rules::{registration_fields, Visibility};
use crate::context::RequestCtx;
use crate::routes::{PageKind, ResolvedRoute};
use crate::text::keys::KeyFilter;
use crate::ui::SeoMeta;

#[component]
pub fn AuthPage(route: ResolvedRoute, path: String) -> impl IntoView {
    let ctx = RequestCtx::current();
    let query = use_query_map().get_untracked();
    let q = |k: &str| query.get(k).unwrap_or_default();
    let return_url = {
        let r = q("returnurl");
        let r = if r.is_empty() { q("ReturnUrl") } else { r };
        crate::auth::rules::entry_return_url(&r, &q("operationcode"), &q("productid"))
    };
    let step = if q("signin") == "activate" && !q("cypher").is_empty() {
        "activate".to_string()
    } else if q("step") == "autologin" && !q("cypher").is_empty() {
        "autologin".to_string()
    } else if !q("updatepassword").is_empty() && !q("cypher").is_empty() {
        "updatepassword".to_string()
    } else {
        match q("step").as_str() {
            s @ ("password" | "register" | "recover" | "done" | "associate" | "socialregister"
            | "secure") => s.to_string(),
            _ => "email".to_string(),
        }
    };
    let title = ctx.t(route.kind.title_key());
    let brand = ctx.site().brand.name();
    let description = ctx.t_with("auth.description", &[("brand", brand)]);
    // Only our own messages: a link cannot put its text on the page (review L5).
    let error = crate::auth::rules::page_message_key(&q("error"))
        .unwrap_or_default()
        .to_string();
    let info = crate::auth::rules::page_message_key(&q("info"))
        .unwrap_or_default()
        .to_string();
    let email = q("email");
    let hidden_common = {
        let xsrf = ctx.xsrf.clone();
        let ret = return_url.clone();
        // The share link's sponsor parameters and where the visitor came from go from step
        // to step.
        let utm: Vec<(String, String)> = crate::auth::attribution::CARRIED_KEYS
            .iter()
            .filter_map(|k| query.get(k).map(|v| (k.to_string(), v)))
            .collect();
        move |step: &'static str| {
            view! {
                <input type="hidden" name="_xsrf" value=xsrf.clone() />
                <input type="hidden" name="step" value=step />
                <input type="hidden" name="returnurl" value=ret.clone() />
                {utm.iter().map(|(k, v)| view! { <input type="hidden" name=k.clone() value=v.clone() /> }).collect_view()}
            }
        }
    };
    let message = (!error.is_empty()).then(|| view! { <p class="auth__error" role="alert" data-testid="auth-error">{ctx.t(&error)}</p> });
    let notice = (!info.is_empty()).then(
        || view! { <p class="auth__info" role="status" data-testid="auth-info">{ctx.t(&info)}</p> },
    );
    let back = |ctx: &RequestCtx, ret: &str| {
        let href = format!(
            "/gr/authentication?returnurl={}",
            crate::routes::encode_query_value(ret)
        );
        view! { <a class="auth__back" href=href>{ctx.t("auth.back")}</a> }
    };
    let body = match step.as_str() {
        "password" => view! {
            <form class="auth__form" method="post" action="/gr/authentication/form" data-testid="password-form">
                {hidden_common("password")}
                <input type="hidden" name="email" value=email.clone() />
                <p class="auth__email">{email.clone()}</p>
                <label for="password">{ctx.t("auth.password.label")}</label>
                <input id="password" name="password" type="password" autocomplete="current-password" required minlength="1" maxlength="128" />
                <label class="auth__check"><input type="checkbox" name="rememberMe" value="1" />{ctx.t("auth.remember")}</label>
                <button class="button button--primary" type="submit">{ctx.t("auth.login.submit")}</button>
                <a href=format!("/gr/authentication?step=recover&email={}", crate::routes::encode_query_value(&email))>{ctx.t("auth.recover.link")}</a>
                {back(&ctx, &return_url)}
            </form>
        }
        .into_any(),
        "register" => view! { <Registration email=email.clone() hidden=hidden_common("register").into_any() /> }.into_any(),
        // Social sign-in's next steps (codes 12 and 13): see `auth::social::ui`.
        s @ ("associate" | "socialregister") => view! {
            <crate::auth::social::ui::PendingStep ticket=q("ticket") register={s == "socialregister"} />
        }
        .into_any(),
        "done" => view! {
            <div class="auth__form" data-testid="register-done">
                <p role="status">{ctx.t_with("auth.register.check_email", &[("email", &email)])}</p>
            </div>
        }
        .into_any(),
        "recover" => view! {
            <form class="auth__form" method="post" action="/gr/authentication/form" data-testid="recover-form">
                {hidden_common("recover")}
                <p>{ctx.t("auth.recover.intro")}</p>
                <label for="email">{ctx.t("auth.email.label")}</label>
                <input id="email" name="email" type="email" autocomplete="email" required value=email.clone() />
                <button class="button button--primary" type="submit">{ctx.t("auth.recover.submit")}</button>
                {back(&ctx, &return_url)}
            </form>
        }
        .into_any(),
        "updatepassword" => view! {
            <form class="auth__form" method="post" action="/gr/authentication/form" data-testid="update-password-form">
                {hidden_common("updatepassword")}
                <input type="hidden" name="cypher" value=q("cypher") />
                <input type="hidden" name="memberid" value=q("memberid") />
                <label for="newPassword">{ctx.t("auth.password.new")}</label>
                <input id="newPassword" name="newPassword" type="password" autocomplete="new-password" required minlength="8" maxlength="128" />
                <p class="auth__hint">{ctx.t("auth.password.rules")}</p>
                <button class="button button--primary" type="submit">{ctx.t("auth.password.save")}</button>
            </form>
        }
        .into_any(),
        "autologin" => view! {
            <AutologinConfirm cypher=q("cypher") return_url=return_url.clone() />
        }
        .into_any(),
        "secure" => view! { <SecureConfirm token=q("token") /> }.into_any(),
        "activate" => view! {
            <form class="auth__form" method="post" action="/gr/authentication/form" data-testid="activate-form">
                {hidden_common("activate")}
                <input type="hidden" name="cypher" value=q("cypher") />
                <p>{ctx.t("auth.activate.intro")}</p>
                <button class="button button--primary" type="submit">{ctx.t("auth.activate.submit")}</button>
            </form>
        }
        .into_any(),
        _ => view! {
            <form class="auth__form" method="post" action="/gr/authentication/form" data-testid="email-form">
                {hidden_common("email")}
                <label for="email">{ctx.t("auth.email.label")}</label>
                <input id="email" name="email" type="email" autocomplete="email" required value=email.clone() />
                <button class="button button--primary" type="submit">{ctx.t("auth.next")}</button>
            </form>
            <crate::auth::social::ui::SocialButtons return_url=return_url.clone() />
        }
        .into_any(),
    };
    let heading = match (route.kind, step.as_str()) {
        (_, "register" | "socialregister") => ctx.t("auth.register.title"),
        (PageKind::Registration, _) => ctx.t("auth.register.title"),
        _ => ctx.t_with("auth.title", &[("brand", brand)]),
    };
    view! {
        <SeoMeta title description path />
        <section class="auth" data-step=step.clone()>
            <h1>{heading}</h1>
            {notice}
            {message}
            {body}
        </section>
        {crate::auth::rules::shows_about_us(&step, &q("hideaboutus")).then(|| view! { <AboutUs /> })}
    }
}

/// The entry page's "about us" section: why join, and the shop's own page about itself.
#[component]
fn AboutUs() -> impl IntoView {
    let ctx = RequestCtx::current();
    let brand = ctx.site().brand.name();
    view! {
        <aside class="auth-about" aria-labelledby="auth-about-title" data-testid="auth-aboutus">
            <h2 id="auth-about-title">{ctx.t_with("auth.aboutus.title", &[("brand", brand)])}</h2>
            <ul>
                <li>{ctx.t("auth.aboutus.prices")}</li>
                <li>{ctx.t("auth.aboutus.time")}</li>
                <li>{ctx.t("auth.aboutus.free")}</li>
            </ul>
            <a href=crate::content::rules::Document::AboutUs.path()>{ctx.t_with("auth.aboutus.more", &[("brand", brand)])}</a>
        </aside>
    }
}

/// An autologin link's page (review L1): "Continue as <first name>?" and a form that
/// signs in only when posted (with the CSRF token), so a link sent by someone else cannot
/// sign the visitor into the sender's account. A link that is no longer valid shows the
/// sign-in form (spec 000 §8: the page renders normally).
#[component]
fn AutologinConfirm(cypher: String, return_url: String) -> impl IntoView {
    let xsrf = RequestCtx::current().xsrf;
    let name = Resource::new(
        {
            let cypher = cypher.clone();
            move || cypher.clone()
        },
        crate::auth::api::autologin_name,
    );
    view! {
        <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
            {
                let cypher = cypher.clone();
                let return_url = return_url.clone();
                move || {
                    let cypher = cypher.clone();
                    let return_url = return_url.clone();
                    let xsrf = xsrf.clone();
                    Suspend::new(async move {
                        let ctx = RequestCtx::current();
                        match name.await {
                            Ok(Some(first_name)) => {
                                let args = [("name", first_name.as_str())];
                                view! {
                                    <form class="auth__form" method="post" action="/gr/authentication/form" data-testid="autologin-form" aria-labelledby="autologin-title">
                                        <input type="hidden" name="_xsrf" value=xsrf />
                                        <input type="hidden" name="step" value="autologin" />
                                        <input type="hidden" name="returnurl" value=return_url.clone() />
                                        <input type="hidden" name="cypher" value=cypher />
                                        <h2 id="autologin-title">{ctx.t_with("auth.autologin.title", &args)}</h2>
                                        <p>{ctx.t_with("auth.autologin.intro", &args)}</p>
                                        <button class="button button--primary" type="submit" data-testid="autologin-continue">{ctx.t_with("auth.autologin.submit", &args)}</button>
                                        <a class="auth__back" href=format!("/gr/authentication?returnurl={}", crate::routes::encode_query_value(&return_url))>{ctx.t("auth.autologin.other")}</a>
                                    </form>
                                }
                                .into_any()
                            }
                            _ => view! {
                                <p class="auth__error" role="alert" data-testid="auth-error">{ctx.t("auth.error.cypher")}</p>
                                <a class="auth__back" href=format!("/gr/authentication?returnurl={}", crate::routes::encode_query_value(&return_url))>{ctx.t("auth.back")}</a>
                            }
                            .into_any(),
                        }
                    })
                }
            }
        </Suspense>
    }
}

/// A change notice's "secure your account" link (review N1): what securing does, and the
/// button that does it (posted with the CSRF token; opening the link changes nothing).
#[component]
fn SecureConfirm(token: String) -> impl IntoView {
    let xsrf = RequestCtx::current().xsrf;
    let email = Resource::new(
        {
            let token = token.clone();
            move || token.clone()
        },
        crate::auth::api::secure_link_email,
    );
    view! {
        <Suspense fallback=move || view! { <p class="loading" aria-busy="true">{RequestCtx::current().t("common.loading")}</p> }>
            {
                let token = token.clone();
                move || {
                    let token = token.clone();
                    let xsrf = xsrf.clone();
                    Suspend::new(async move {
                        let ctx = RequestCtx::current();
                        match email.await {
                            Ok(Some(address)) => view! {
                                <form class="auth__form" method="post" action=SECURE_FORM data-testid="secure-form" aria-labelledby="secure-title">
                                    <input type="hidden" name="_xsrf" value=xsrf />
                                    <input type="hidden" name="token" value=token />
                                    <h2 id="secure-title">{ctx.t("account.secure.title")}</h2>
                                    <p>{ctx.t_with("account.secure.intro", &[("email", &address)])}</p>
                                    <button class="button button--primary" type="submit" data-testid="secure-submit">{ctx.t("account.secure.submit")}</button>
                                </form>
                            }
                            .into_any(),
                            _ => view! {
                                <p class="auth__error" role="alert" data-testid="auth-error">{ctx.t("account.secure.invalid")}</p>
                                <a class="auth__back" href="/gr/authentication?step=recover">{ctx.t("auth.recover.link")}</a>
                            }
                            .into_any(),
                        }
                    })
                }
            }
        </Suspense>
    }
}

/// Where the secure form posts (`server/src/forms/account.rs`).
pub const SECURE_FORM: &str = "/gr/authentication/secure";

#[component]
fn Registration(email: String, hidden: AnyView) -> impl IntoView {
    let ctx = RequestCtx::current();
    let query = use_query_map().get_untracked();
    let q = |k: &str| query.get(k).unwrap_or_default();
    let cfg = registration_fields(ctx.site_id);
    let shown = |v: Visibility| v != Visibility::Hidden;
    let req = |v: Visibility| v == Visibility::Mandatory;
    // A refused registration comes back as it was left (but the password), every error by
    // its field; the first faulty field takes the focus.
    let draft = super::draft::read().unwrap_or_else(|| super::draft::Draft {
        email,
        // The share link's code; the sponsor's id travels hidden.
        sponsorship_code: q("mgmcode"),
        // An entry link may name the member (spec 000 §2 entry-page query).
        first_name: q("firstname"),
        last_name: q("lastname"),
        ..Default::default()
    });
    let first = draft.first_faulty();
    let error = {
        let draft = draft.clone();
        move |name: &str| draft.error(name)
    };
    // An input's error attributes and the message below it.
    let check = move |name: &'static str| {
        let ctx = RequestCtx::current();
        let err = error(name);
        let id = format!("{name}-error");
        (
            err.is_some().then_some("true"),
            err.is_some().then(|| id.clone()),
            (first == Some(name)).then_some(""),
            err.map(|key| view! { <span class="field__error" id=id data-testid=format!("error-{name}")>{ctx.t(&key)}</span> }),
        )
    };
    let civility = draft.civility;
    let (email_inv, email_desc, email_focus, email_err) = check("email");
    let (pw_inv, pw_desc, pw_focus, pw_err) = check("password");
    let (_, civ_desc, _, civ_err) = check("civility");
    let (first_inv, first_desc, first_focus, first_err) = check("firstName");
    let (last_inv, last_desc, last_focus, last_err) = check("lastName");
    let (birth_inv, birth_desc, birth_focus, birth_err) = check("birthDate");
    let (zip_inv, zip_desc, zip_focus, zip_err) = check("zipCode");
    let (city_inv, city_desc, city_focus, city_err) = check("city");
    let (country_inv, country_desc, country_focus, country_err) = check("countryCode");
    let (job_inv, job_desc, job_focus, job_err) = check("occupation");
    let site_country = ctx.site().country_code;
    let chosen_country = if draft.country_code.is_empty() {
        site_country.to_string()
    } else {
        draft.country_code.clone()
    };
    let countries = crate::auth::countries::country_list(site_country)
        .into_iter()
        .map(|c| {
            let selected = c.country_code == chosen_country;
            view! { <option value=c.country_code.clone() selected=selected>{format!("{} {}", c.flag_text, c.label)}</option> }
        })
        .collect_view();
    let chosen_job = draft.occupation;
    let jobs =
        shown(cfg.occupation).then(|| Resource::new(|| (), |_| crate::auth::api::fetch_jobs()));
    let pw_desc = match pw_desc {
        Some(id) => format!("password-rules {id}"),
        None => "password-rules".to_string(),
    };
    view! {
        <form class="auth__form auth__form--register" method="post" action="/gr/authentication/form" data-testid="register-form">
            {hidden}
            <label for="email">{ctx.t("auth.email.label")}</label>
            <input id="email" name="email" type="email" autocomplete="email" required value=draft.email.clone()
                aria-invalid=email_inv aria-describedby=email_desc autofocus=email_focus />
            {email_err}
            <label for="password">{ctx.t("auth.password.label")}</label>
            <input id="password" name="password" type="password" autocomplete="new-password" required minlength="8" maxlength="128"
                aria-invalid=pw_inv aria-describedby=pw_desc autofocus=pw_focus />
            <p class="auth__hint" id="password-rules">{ctx.t("auth.password.rules")}</p>
            {pw_err}
            {shown(cfg.civility).then(|| view! {
                <fieldset class="auth__civility" aria-describedby=civ_desc>
                    <legend>{ctx.t("auth.civility")}</legend>
                    <label><input type="radio" name="civility" value="2" required=req(cfg.civility) checked=civility == Some(2) />{ctx.t("auth.civility.2")}</label>
                    <label><input type="radio" name="civility" value="1" checked=civility == Some(1) />{ctx.t("auth.civility.1")}</label>
                    <label><input type="radio" name="civility" value="0" checked=civility == Some(0) />{ctx.t("auth.civility.0")}</label>
                </fieldset>
                {civ_err}
            })}
            <label for="firstName">{ctx.t("auth.firstname")}</label>
            <input id="firstName" name="firstName" autocomplete="given-name" required=req(cfg.first_name) value=draft.first_name.clone()
                data-key-filter=KeyFilter::Name.attr() aria-invalid=first_inv aria-describedby=first_desc autofocus=first_focus />
            {first_err}
            <label for="lastName">{ctx.t("auth.lastname")}</label>
            <input id="lastName" name="lastName" autocomplete="family-name" required=req(cfg.last_name) value=draft.last_name.clone()
                data-key-filter=KeyFilter::Name.attr() aria-invalid=last_inv aria-describedby=last_desc autofocus=last_focus />
            {last_err}
            {shown(cfg.birth_date).then(|| view! {
                <label for="birthDate">{ctx.t("auth.birthdate")}</label>
                <input id="birthDate" name="birthDate" placeholder=ctx.t("auth.birthdate.placeholder") inputmode="numeric" required=req(cfg.birth_date)
                    value=draft.birth_date.clone() data-key-filter=KeyFilter::Date.attr() autocomplete="bday"
                    aria-invalid=birth_inv aria-describedby=birth_desc autofocus=birth_focus />
                {birth_err}
            })}
            {shown(cfg.zip_code_and_city).then(|| view! {
                <label for="zipCode">{ctx.t("auth.zipcode")}</label>
                <input id="zipCode" name="zipCode" inputmode="numeric" autocomplete="postal-code" required=req(cfg.zip_code_and_city)
                    data-key-filter=crate::auth::rules::zip_code_key_filter(ctx.site_id).map(|f| f.attr())
                    data-city-from-zip="city"
                    value=draft.zip_code.clone() aria-invalid=zip_inv aria-describedby=zip_desc autofocus=zip_focus />
                {zip_err}
                <label for="city">{ctx.t("auth.city")}</label>
                // Offered from the zip code (frontend-react/src/pages/zip-city.ts).
                <input id="city" name="city" autocomplete="address-level2" required=req(cfg.zip_code_and_city)
                    list="city-options"
                    value=draft.city.clone() aria-invalid=city_inv aria-describedby=city_desc autofocus=city_focus />
                <datalist id="city-options"></datalist>
                {city_err}
            })}
            {shown(cfg.country).then(|| view! {
                <label for="countryCode">{ctx.t("auth.country")}</label>
                <select id="countryCode" name="countryCode" autocomplete="country" required=req(cfg.country)
                    aria-invalid=country_inv aria-describedby=country_desc autofocus=country_focus data-testid="register-country">
                    {countries}
                </select>
                {country_err}
            })}
            {jobs.map(|jobs| view! {
                // The list is read before the page is sent: the select comes whole.
                <Suspense fallback=|| ()>
                    {move || { let job_desc = job_desc.clone(); Suspend::new(async move {
                        let ctx = RequestCtx::current();
                        let options = jobs.await.unwrap_or_default().into_iter().map(|j| view! {
                            <option value=j.id.to_string() selected=chosen_job == Some(j.id)>{j.title}</option>
                        }).collect_view();
                        view! {
                            <label for="occupation">{ctx.t("auth.occupation")}</label>
                            <select id="occupation" name="occupation" required=req(cfg.occupation)
                                aria-invalid=job_inv aria-describedby=job_desc autofocus=job_focus data-testid="register-occupation">
                                <option value="">{ctx.t("auth.occupation.none")}</option>
                                {options}
                            </select>
                        }
                    })}}
                </Suspense>
                {job_err}
            })}
            {shown(cfg.sponsorship_code).then(|| view! {
                <label for="sponsorshipCode">{ctx.t("auth.sponsorship")}</label>
                <input id="sponsorshipCode" name="sponsorshipCode" value=draft.sponsorship_code.clone() />
            })}
            {consent_checks_as(&ctx, &draft)}
            {shown(cfg.optin_partner).then(|| view! {
                <label class="auth__check"><input type="checkbox" name="optinPartner" value="1" checked=draft.optin_partner />{ctx.t("auth.optin_partner")}</label>
            })}
            <button class="button button--primary" type="submit">{ctx.t("auth.register.submit")}</button>
        </form>
        // The form's key filters and city lookup: the only script of the sign-in steps.
        <script type="module" src=crate::ui::assets::script("auth")></script>
    }
}
