//! Travel search calls, against the real server: search, autocomplete, countries, redirect.
