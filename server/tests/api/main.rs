//! Integration tests of the server, in one binary: each module holds the tests of one area
//! against the real server (HTTP on a free port) and a fresh SQLite file or PostgreSQL
//! database per test; `helpers` starts it and holds what several areas share.
mod helpers;

mod account;
mod address;
mod aftersale;
mod auth;
mod backup;
mod cart;
mod cart_concurrency;
mod catalog;
mod communications;
mod content;
mod demo_data;
mod diagnostics;
mod dsa_form;
mod experiments;
mod experiments_holdback;
mod foundation;
mod gifts;
mod hardening;
mod header;
mod help;
mod home;
mod limits;
mod lists;
mod marketing;
mod member_pages;
mod orders;
mod page_cache;
mod promotions;
mod retention;
mod review_low;
mod rosedeals;
mod schema_names;
mod search;
mod social;
mod static_files;
mod themes;
mod themes_pages;
mod tracking;
mod travel;
mod travel_catalog;
mod travel_search;
mod two_instances;
mod wallet;
