//! The help form's rules, one test per rule of spec 001 §4.
use super::*;

fn filled() -> HelpFormState {
    HelpFormState {
        selected_reason: Some("delivery".into()),
        selected_sub_reason: Some("late".into()),
        selected_sale: Some("sale-1".into()),
        selected_order: Some(42),
        text_area_message: "Where is my parcel please?".into(),
        reason_error: true,
        sub_reason_error: true,
        order_error: true,
        message_error: true,
        open_order_alert: true,
        message_has_been_sent: true,
        send_message_error: Some("errors.general_retry.notification".into()),
        display_extra_text: true,
        ..Default::default()
    }
}

#[test]
fn choosing_a_reason_clears_sub_reason_sale_order_message_errors_and_sent_flag() {
    let s = reduce(filled(), HelpAction::SelectReason("returns".into()));
    assert_eq!(s.selected_reason.as_deref(), Some("returns"));
    assert_eq!(s.selected_sub_reason, None);
    assert_eq!(s.selected_sale, None);
    assert_eq!(s.selected_order, None);
    assert_eq!(s.text_area_message, "");
    assert!(!s.reason_error && !s.sub_reason_error && !s.order_error && !s.message_error);
    assert_eq!(s.send_message_error, None);
    assert!(!s.message_has_been_sent);
}

#[test]
fn choosing_a_sub_reason_clears_order_sale_message_errors_and_extra_text() {
    let s = reduce(filled(), HelpAction::SelectSubReason("damaged".into()));
    assert_eq!(
        s.selected_reason.as_deref(),
        Some("delivery"),
        "the reason stays"
    );
    assert_eq!(s.selected_sub_reason.as_deref(), Some("damaged"));
    assert_eq!(s.selected_sale, None);
    assert_eq!(s.selected_order, None);
    assert_eq!(s.text_area_message, "");
    assert!(!s.reason_error && !s.sub_reason_error && !s.order_error && !s.message_error);
    assert!(!s.display_extra_text);
    assert!(
        s.message_has_been_sent,
        "the sent flag is the reason's to clear"
    );
}

#[test]
fn choosing_an_order_clears_its_error_and_the_extra_text_only() {
    let s = reduce(filled(), HelpAction::SelectOrder(Some(7)));
    assert_eq!(s.selected_order, Some(7));
    assert!(!s.order_error);
    assert!(!s.display_extra_text);
    assert!(!s.open_order_alert);
    assert!(s.message_error && s.reason_error, "other errors stay");
    assert_eq!(s.text_area_message, "Where is my parcel please?");
}

#[test]
fn sending_starts_loading_success_sets_sent_failure_stores_the_error() {
    let s = reduce(HelpFormState::default(), HelpAction::SendStarted);
    assert!(s.loading);
    let ok = reduce(s.clone(), HelpAction::SendSucceeded);
    assert!(!ok.loading && ok.message_has_been_sent);
    let failed = reduce(s, HelpAction::SendFailed("help.errors.send".into()));
    assert!(!failed.loading && !failed.message_has_been_sent);
    assert_eq!(
        failed.send_message_error.as_deref(),
        Some("help.errors.send")
    );
}

#[test]
fn an_answer_keeps_loading_until_displayed_and_a_bad_rating_marks_the_message_sent() {
    let s = reduce(HelpFormState::default(), HelpAction::SendStarted);
    let answered = reduce(
        s.clone(),
        HelpAction::AnswerReceived(Some(("ev".into(), "delivery-times".into()))),
    );
    assert!(!answered.loading, "an answer is displayed at once");
    assert_eq!(
        answered.help_form_gen_ai_response.as_ref().unwrap().1,
        "delivery-times"
    );
    let none = reduce(s, HelpAction::AnswerReceived(None));
    assert!(none.loading, "the ticket send follows");
    let bad = reduce(answered.clone(), HelpAction::FeedbackSent { good: false });
    assert!(bad.message_has_been_sent);
    let good = reduce(answered.clone(), HelpAction::FeedbackSent { good: true });
    assert!(!good.message_has_been_sent);
    let failed = reduce(
        answered,
        HelpAction::FeedbackFailed("errors.general_retry.notification".into()),
    );
    assert!(failed.gen_ai_res_feedback_error.is_some());
}

#[test]
fn no_answer_sends_a_ticket_when_allowed_else_shows_the_extra_text() {
    assert_eq!(after_answer(true, true, true), NextStep::ShowAnswer);
    assert_eq!(after_answer(true, false, false), NextStep::ShowAnswer);
    assert_eq!(
        after_answer(false, true, true),
        NextStep::SendTicket { multipart: true }
    );
    assert_eq!(
        after_answer(false, true, false),
        NextStep::SendTicket { multipart: false }
    );
    assert_eq!(after_answer(false, false, true), NextStep::ShowExtraText);
    let s = reduce(HelpFormState::default(), HelpAction::ShowExtraText);
    assert!(s.display_extra_text && !s.loading);
}

#[test]
fn an_order_reason_without_an_order_opens_the_order_alert() {
    let rule = ReasonRule {
        has_sub_reasons: true,
        needs_order: true,
    };
    let s = HelpFormState {
        selected_reason: Some("delivery".into()),
        selected_sub_reason: Some("late".into()),
        text_area_message: "Where is my parcel please?".into(),
        ..Default::default()
    };
    let faults = check(&s, Some(&rule));
    assert_eq!(faults, vec![HelpField::Order]);
    let s = reduce(s, HelpAction::Invalid(faults));
    assert!(s.order_error && s.open_order_alert);
    let s = reduce(s, HelpAction::OpenOrderAlert(false));
    assert!(!s.open_order_alert);
}

#[test]
fn checks_name_every_missing_field() {
    let faults = check(&HelpFormState::default(), None);
    assert_eq!(faults, vec![HelpField::Reason, HelpField::Message]);
    let rule = ReasonRule {
        has_sub_reasons: true,
        needs_order: false,
    };
    let s = HelpFormState {
        selected_reason: Some("account".into()),
        text_area_message: "short".into(),
        ..Default::default()
    };
    assert_eq!(
        check(&s, Some(&rule)),
        vec![HelpField::SubReason, HelpField::Message]
    );
    let s = reduce(s, HelpAction::SetMessage("A message long enough".into()));
    let s = reduce(s, HelpAction::SelectSale(Some("s".into())));
    assert_eq!(s.selected_sale.as_deref(), Some("s"));
    assert_eq!(check(&s, Some(&rule)), vec![HelpField::SubReason]);
}

#[test]
fn contact_methods_are_kept() {
    let m = ContactMethod {
        platform_name: "WhatsApp".into(),
        href: "https://wa.me/33100000000".into(),
        label: "+33 1 00 00 00 00".into(),
    };
    let s = reduce(
        HelpFormState::default(),
        HelpAction::SetContactMethods(vec![m.clone()]),
    );
    assert_eq!(s.contact_methods, vec![m]);
}

#[test]
fn order_options_are_numbered_from_one() {
    let facts = [
        OrderFacts {
            order_id: 9,
            operation_name: "Maison Lumière".into(),
            date: "12/11/2026".into(),
            price: "59,90 €".into(),
        },
        OrderFacts {
            order_id: 4,
            operation_name: "Sport & Co".into(),
            date: "02/10/2026".into(),
            price: "20,00 €".into(),
        },
    ];
    let options = order_options(&facts);
    assert_eq!(options[0].label, "1. Maison Lumière – 12/11/2026 – 59,90 €");
    assert_eq!(options[1].label, "2. Sport & Co – 02/10/2026 – 20,00 €");
    assert_eq!(options[1].order_id, 4);
}

#[test]
fn chat_links_carry_reason_and_order() {
    assert_eq!(chat_link("delivery", None), "/chat?reason=delivery");
    assert_eq!(chat_link("a b&c", None), "/chat?reason=a%20b%26c");
    assert_eq!(
        chat_link("returns", Some((12, true))),
        "/chat?reason=returns&order=12&isPastOrder=true"
    );
    assert_eq!(order_help_form_link(12), "/postsales/12/helpform");
}

#[test]
fn ticket_status_follows_the_last_author_and_ratings_parse() {
    assert_eq!(
        TicketStatus::Closed.after_message(false),
        TicketStatus::Open
    );
    assert_eq!(
        TicketStatus::Open.after_message(true),
        TicketStatus::Answered
    );
    assert_eq!(TicketStatus::from_wire("answered"), TicketStatus::Answered);
    assert_eq!(satisfied("BAD"), Some(false));
    assert_eq!(satisfied("good"), Some(true));
    assert_eq!(satisfied("maybe"), None);
}
