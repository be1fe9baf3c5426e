-- The garment's fingerprint as if cropped (Imaging's ImageFingerprint.garmentCrops): ten 64-bit
-- DCT hashes of the box around the garment with 7% of it left off one side or two, 8 bytes
-- little-endian each, 80 in all, as step 26 keeps the whole picture's. A crop that cuts the
-- garment moves its box, and so its fingerprint, a dozen bits; the cropped copy's garment
-- fingerprint comes near one of its source's garment crops. NULL where no garment was found,
-- and until taken: images imported before this step that have a garment get them from
-- `wardrobe fingerprints`, which reads only their thumbnails. images_by_fingerprint holds them
-- too, so that `duplicates` still reads every image's fingerprints from the index alone.
ALTER TABLE images ADD COLUMN garment_crop_fingerprints BLOB;
DROP INDEX images_by_fingerprint;
CREATE INDEX images_by_fingerprint
    ON images (id, fingerprint, garment_fingerprint, crop_fingerprints, garment_crop_fingerprints, colour, person_colour, colours);
