-- Two perceptual fingerprints of each image, as SQLite's step 18 keeps them (see
-- migrations/0018_fingerprints.sql): fingerprint of the whole picture, garment_fingerprint
-- of the garment's box (NULL where none was found), each 64 bits as a signed bigint;
-- fingerprint NULL until taken.
ALTER TABLE images ADD COLUMN fingerprint bigint;
ALTER TABLE images ADD COLUMN garment_fingerprint bigint;
