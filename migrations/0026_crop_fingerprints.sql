-- The whole picture's fingerprint as if cropped (Imaging's ImageFingerprint.crops): ten 64-bit
-- DCT hashes of the thumbnail with 7% left off one side or two, each as 8 bytes little-endian,
-- 80 in all. A cropped copy's whole fingerprint comes near one of its source's, where the
-- whole fingerprints of the two differ by a dozen bits. NULL until taken: images imported
-- before this step get them from `wardrobe fingerprints`, which reads only their thumbnails.
-- images_by_fingerprint holds them too, so that `duplicates` still reads every image's
-- fingerprints from the index alone.
ALTER TABLE images ADD COLUMN crop_fingerprints BLOB;
DROP INDEX images_by_fingerprint;
CREATE INDEX images_by_fingerprint
    ON images (id, fingerprint, garment_fingerprint, crop_fingerprints, colour, person_colour, colours);
