-- The garment's main colours, as SQLite's step 14 keeps them (see
-- migrations/0014_garment_colour.sql): colour the garment's one palette name, colours up to
-- three "name share L* a* b*" separated by ";", colour_on_garment 1 when a garment was found;
-- all NULL until measured.
ALTER TABLE images ADD COLUMN colour text;
ALTER TABLE images ADD COLUMN colours text;
ALTER TABLE images ADD COLUMN colour_on_garment bigint CHECK (colour_on_garment IN (0, 1));
CREATE INDEX images_by_colour ON images (colour);
