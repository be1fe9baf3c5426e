-- The garment's fingerprint as if cropped, as SQLite's step 27 keeps it (see
-- migrations/0027_garment_crop_fingerprints.sql): ten 64-bit hashes, 8 bytes little-endian
-- each; NULL where no garment was found, and until taken. The index of what `duplicates`
-- reads holds them too.
ALTER TABLE images ADD COLUMN garment_crop_fingerprints bytea;
DROP INDEX images_by_fingerprint;
CREATE INDEX images_by_fingerprint
    ON images (id, fingerprint, garment_fingerprint, crop_fingerprints, garment_crop_fingerprints, colour, person_colour, colours);
