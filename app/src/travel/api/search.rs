//! Server functions of the travel search (autocomplete, results) and the travel home.
