-- What `duplicates` and `similar` read of every image, in an index of its own: its id, its
-- fingerprints (step 18), its colour name, a person's colour and its measured colours. The
-- images table keeps each thumbnail in its row, before these columns, so reading them from
-- the table walks every thumbnail's pages (half a second on 100,000 images); from this
-- index, which holds them all, a few milliseconds.
CREATE INDEX images_by_fingerprint
    ON images (id, fingerprint, garment_fingerprint, colour, person_colour, colours);
