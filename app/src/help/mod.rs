//! The help centre (contact reasons, automatic answers, tickets) and the message centre
//! (spec 001 §2–§9 "Post-sales").
