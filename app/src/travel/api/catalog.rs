//! Server functions of the travel catalogs (offers, filters, count).
