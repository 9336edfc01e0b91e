//! The help form's rules (spec 001 §3 "Help form state", §4 "Help form (contact)" and
//! "AI answer", §9 "Order-number select options start at 1"): the form's state as a pure
//! reducer, the checks before a send, the order options, the chat link and what follows
//! an automatic answer. No I/O: the server page and the form target run the same reducer,
//! and the unit tests below go through it rule by rule.
use serde::{Deserialize, Serialize};

/// Shortest and longest message a member may send.
pub const MESSAGE_MIN: usize = 10;
pub const MESSAGE_MAX: usize = 4000;
/// Attachments: at most this many files, each at most `FILE_MAX_BYTES`, all together at
/// most `TOTAL_MAX_BYTES` (PDF, PNG, JPEG, told by their first bytes).
pub const MAX_FILES: usize = 3;

/// The automatic-answer call's rate limit per member: (calls, window in seconds). A
/// search over the articles is cheap, but each answer is a stored evaluation; past this,
/// 429 with `help.errors.too_many`.
pub const ANSWER_RATE_LIMIT: (i64, i64) = (20, 60);
pub const FILE_MAX_BYTES: usize = 4 * 1024 * 1024;
pub const TOTAL_MAX_BYTES: usize = 8 * 1024 * 1024;
/// The multipart send's timeout in the browser (spec 001 §9: 15 000 ms).
pub const MULTIPART_TIMEOUT_MS: u32 = 15_000;

/// A contact method of a site (spec: platformName WhatsApp, Phone, Messenger).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ContactMethod {
    pub platform_name: String,
    /// Where it leads (`https://wa.me/...`, `tel:...`, `https://m.me/...`).
    pub href: String,
    /// What the member reads (a number, an account name).
    pub label: String,
}

/// The form's state (spec 001 §3): the choices, the message, one error flag per field,
/// the alerts and the outcome of the send and of the automatic answer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HelpFormState {
    pub selected_reason: Option<String>,
    pub selected_sub_reason: Option<String>,
    pub selected_sale: Option<String>,
    pub selected_order: Option<i64>,
    pub text_area_message: String,
    pub reason_error: bool,
    pub sub_reason_error: bool,
    pub order_error: bool,
    pub message_error: bool,
    /// The reason is about an order and the member chose none.
    pub open_order_alert: bool,
    pub contact_methods: Vec<ContactMethod>,
    pub loading: bool,
    pub message_has_been_sent: bool,
    /// The message key of a failed send or feedback.
    pub send_message_error: Option<String>,
    /// The automatic answer shown (evaluation id, article id).
    pub help_form_gen_ai_response: Option<(String, String)>,
    pub gen_ai_res_feedback_error: Option<String>,
    /// No automatic answer and tickets are not taken on this site: the extra text shows.
    pub display_extra_text: bool,
}

/// What happens to the form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HelpAction {
    SelectReason(String),
    SelectSubReason(String),
    SelectSale(Option<String>),
    SelectOrder(Option<i64>),
    SetMessage(String),
    SetContactMethods(Vec<ContactMethod>),
    OpenOrderAlert(bool),
    /// The checks before a send found these faults (see [`check`]).
    Invalid(Vec<HelpField>),
    SendStarted,
    SendSucceeded,
    SendFailed(String),
    /// The automatic answer came back: `Some((evaluationId, articleId))` or nothing.
    /// Loading stays on: until the answer is displayed, or until the ticket send or the
    /// extra text that follows no answer.
    AnswerReceived(Option<(String, String)>),
    /// The answer is on the screen: loading ends.
    AnswerDisplayed,
    /// No answer and no tickets on this site.
    ShowExtraText,
    /// The member's rating was recorded; `good == false` sent the message as a ticket.
    FeedbackSent {
        good: bool,
    },
    FeedbackFailed(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HelpField {
    Reason,
    SubReason,
    Order,
    Message,
}

impl HelpField {
    pub fn wire(self) -> &'static str {
        match self {
            HelpField::Reason => "subjectId",
            HelpField::SubReason => "subReasonId",
            HelpField::Order => "orderId",
            HelpField::Message => "body",
        }
    }
    pub fn message_key(self) -> &'static str {
        match self {
            HelpField::Reason => "help.errors.reason",
            HelpField::SubReason => "help.errors.sub_reason",
            HelpField::Order => "help.errors.order",
            HelpField::Message => "help.errors.message",
        }
    }
}

fn clear_errors(s: &mut HelpFormState) {
    s.reason_error = false;
    s.sub_reason_error = false;
    s.order_error = false;
    s.message_error = false;
    s.send_message_error = None;
}

/// The spec's reset rules, one arm each.
pub fn reduce(mut s: HelpFormState, action: HelpAction) -> HelpFormState {
    match action {
        // Choosing a reason clears sub-reason, sale, order, message, errors and the sent flag.
        HelpAction::SelectReason(reason) => {
            s.selected_reason = Some(reason);
            s.selected_sub_reason = None;
            s.selected_sale = None;
            s.selected_order = None;
            s.text_area_message.clear();
            clear_errors(&mut s);
            s.open_order_alert = false;
            s.message_has_been_sent = false;
            s.help_form_gen_ai_response = None;
            s.gen_ai_res_feedback_error = None;
        }
        // Choosing a sub-reason clears order, sale, message, errors and the extra text.
        HelpAction::SelectSubReason(sub) => {
            s.selected_sub_reason = Some(sub);
            s.selected_sale = None;
            s.selected_order = None;
            s.text_area_message.clear();
            clear_errors(&mut s);
            s.open_order_alert = false;
            s.display_extra_text = false;
        }
        // The spec gives choosing a sale no reset: it sets the sale, nothing else.
        HelpAction::SelectSale(sale) => s.selected_sale = sale,
        // Choosing an order clears its error and the extra text.
        HelpAction::SelectOrder(order) => {
            s.selected_order = order;
            s.order_error = false;
            s.open_order_alert = false;
            s.display_extra_text = false;
        }
        HelpAction::SetMessage(text) => {
            s.text_area_message = text;
            s.message_error = false;
        }
        HelpAction::SetContactMethods(methods) => s.contact_methods = methods,
        HelpAction::OpenOrderAlert(open) => s.open_order_alert = open,
        HelpAction::Invalid(fields) => {
            for f in fields {
                match f {
                    HelpField::Reason => s.reason_error = true,
                    HelpField::SubReason => s.sub_reason_error = true,
                    HelpField::Order => {
                        s.order_error = true;
                        s.open_order_alert = true;
                    }
                    HelpField::Message => s.message_error = true,
                }
            }
        }
        // Sending starts loading.
        HelpAction::SendStarted => {
            s.loading = true;
            s.send_message_error = None;
        }
        // Success sets messageHasBeenSent.
        HelpAction::SendSucceeded => {
            s.loading = false;
            s.message_has_been_sent = true;
        }
        // Failure stores sendMessageError.
        HelpAction::SendFailed(key) => {
            s.loading = false;
            s.send_message_error = Some(key);
        }
        // An answer keeps loading until it is displayed (spec 001 §4); none leaves the next
        // step (ticket send or extra text) to [`after_answer`], loading still on.
        HelpAction::AnswerReceived(answer) => {
            s.help_form_gen_ai_response = answer;
        }
        HelpAction::AnswerDisplayed => s.loading = false,
        HelpAction::ShowExtraText => {
            s.loading = false;
            s.display_extra_text = true;
        }
        // A bad rating marks the message as sent (it became a ticket).
        HelpAction::FeedbackSent { good } => {
            s.gen_ai_res_feedback_error = None;
            if !good {
                s.message_has_been_sent = true;
            }
        }
        HelpAction::FeedbackFailed(key) => s.gen_ai_res_feedback_error = Some(key),
    }
    s
}

/// A reason of the form and whether it needs an order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReasonRule {
    pub has_sub_reasons: bool,
    pub needs_order: bool,
}

/// The faults that stop a send, in form order.
pub fn check(s: &HelpFormState, reason: Option<&ReasonRule>) -> Vec<HelpField> {
    let mut faults = Vec::new();
    match (&s.selected_reason, reason) {
        (Some(_), Some(rule)) => {
            if rule.has_sub_reasons && s.selected_sub_reason.is_none() {
                faults.push(HelpField::SubReason);
            }
            if rule.needs_order && s.selected_order.is_none() {
                faults.push(HelpField::Order);
            }
        }
        _ => faults.push(HelpField::Reason),
    }
    let len = s.text_area_message.trim().chars().count();
    if !(MESSAGE_MIN..=MESSAGE_MAX).contains(&len) {
        faults.push(HelpField::Message);
    }
    faults
}

/// What the form does once the automatic answer came back (spec 001 §4 "AI answer").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NextStep {
    /// Show the answer and ask for a rating.
    ShowAnswer,
    /// Send the message as a ticket at once: multipart when attachments are on.
    SendTicket { multipart: bool },
    /// Tickets are not taken here: show the extra text (the other ways to reach us).
    ShowExtraText,
}

pub fn after_answer(answered: bool, tickets_allowed: bool, attachments: bool) -> NextStep {
    match (answered, tickets_allowed) {
        (true, _) => NextStep::ShowAnswer,
        (false, true) => NextStep::SendTicket {
            multipart: attachments,
        },
        (false, false) => NextStep::ShowExtraText,
    }
}

/// What a rating does (spec 001 §4 "A bad satisfaction rating on feedback marks the
/// message as sent"; "if not allowed, extra text is shown").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterFeedback {
    /// A good rating: the matter is closed, no ticket.
    Thanks,
    /// A bad rating where the site takes tickets: the question becomes one.
    SendTicket,
    /// A bad rating where it does not: no ticket, the extra text (other ways to reach us).
    ShowExtraText,
}

pub fn after_feedback(good: bool, tickets_allowed: bool) -> AfterFeedback {
    match (good, tickets_allowed) {
        (true, _) => AfterFeedback::Thanks,
        (false, true) => AfterFeedback::SendTicket,
        (false, false) => AfterFeedback::ShowExtraText,
    }
}

/// The chat page's address (spec 001 §2): `/chat?reason=...`, and for an order also
/// `order` and `isPastOrder`. It opens in a new window.
pub fn chat_link(reason: &str, order: Option<(i64, bool)>) -> String {
    let mut href = format!("/chat?reason={}", crate::routes::encode_query_value(reason));
    if let Some((id, past)) = order {
        href.push_str(&format!("&order={id}&isPastOrder={past}"));
    }
    href
}

/// The help form of an order (spec 001 §2 "base path plus {id} plus help form").
pub fn order_help_form_link(order_id: i64) -> String {
    format!("/postsales/{order_id}/helpform")
}

/// A ticket's status on the wire and in the message centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum TicketStatus {
    Open,
    Answered,
    Closed,
}

impl TicketStatus {
    pub fn wire(self) -> &'static str {
        match self {
            TicketStatus::Open => "open",
            TicketStatus::Answered => "answered",
            TicketStatus::Closed => "closed",
        }
    }
    pub fn from_wire(s: &str) -> TicketStatus {
        match s {
            "answered" => TicketStatus::Answered,
            "closed" => TicketStatus::Closed,
            _ => TicketStatus::Open,
        }
    }
    /// A member's message reopens an answered or closed thread; support's answers it.
    pub fn after_message(self, from_support: bool) -> TicketStatus {
        if from_support {
            TicketStatus::Answered
        } else {
            TicketStatus::Open
        }
    }
}

/// What a rating says: `satisfaction` is "good"/"bad" (also 1/0, true/false, thumbs).
pub fn satisfied(satisfaction: &str) -> Option<bool> {
    match satisfaction.trim().to_ascii_lowercase().as_str() {
        "good" | "yes" | "true" | "1" | "satisfied" | "up" => Some(true),
        "bad" | "no" | "false" | "0" | "unsatisfied" | "down" => Some(false),
        _ => None,
    }
}

mod options;
pub use options::*;

#[cfg(test)]
mod tests;
