//! Travel offers of the catalogs and the search: filters, paging, count, facets.
