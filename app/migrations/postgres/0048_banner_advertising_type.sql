-- A media-ads banner's advertising type (spec 000 advertising types PUBLICITY and
-- SPONSORED; app/src/home/rules.rs `ad_kind`): an advertiser's publicity is labelled as an
-- ad, a brand's sponsored banner as sponsored. Empty for the other banners (and read as
-- PUBLICITY on a media-ads banner that does not say).
ALTER TABLE banners ADD COLUMN advertising_type TEXT NOT NULL DEFAULT '';
