-- The whole picture's fingerprint as if cropped, as SQLite's step 26 keeps it (see
-- migrations/0026_crop_fingerprints.sql): ten 64-bit hashes, 8 bytes little-endian each;
-- NULL until taken. The index of what `duplicates` reads holds them too.
ALTER TABLE images ADD COLUMN crop_fingerprints bytea;
DROP INDEX images_by_fingerprint;
CREATE INDEX images_by_fingerprint
    ON images (id, fingerprint, garment_fingerprint, crop_fingerprints, colour, person_colour, colours);
