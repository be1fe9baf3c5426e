-- Two perceptual fingerprints of each image (Imaging's ImageFingerprint), taken on the
-- stored thumbnail: fingerprint of the whole picture, garment_fingerprint of the box around
-- the garment the photo recipe finds (NULL where it finds none). 64 bits each, kept as the
-- signed 64-bit integer of the same bits; the number of bits two differ in tells the same
-- photo saved again (resized, recompressed, cropped a little, brightened) from another.
-- fingerprint is NULL until taken: images imported before this step get theirs from
-- `wardrobe fingerprints`, which reads only their thumbnails.
ALTER TABLE images ADD COLUMN fingerprint INTEGER;
ALTER TABLE images ADD COLUMN garment_fingerprint INTEGER;
