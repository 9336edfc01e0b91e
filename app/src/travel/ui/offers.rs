//! Offer cards and the map island, shared by the catalogs and the search results.
