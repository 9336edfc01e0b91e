//! Destinations: autocomplete (countries, regions, cities, travel sales) and countries.
