//! Rose deals, the media offer: deals bought through the cart, their vouchers, refunds,
//! retries and contact (spec 001 §2–§8 "Rose deals").
