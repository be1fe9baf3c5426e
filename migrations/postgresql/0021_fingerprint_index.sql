-- What `duplicates` and `similar` read of every image, in an index of its own, as SQLite's
-- step 21 keeps it (see migrations/0021_fingerprint_index.sql); here it lets the planner
-- read them without the rows' thumbnails.
CREATE INDEX images_by_fingerprint
    ON images (id, fingerprint, garment_fingerprint, colour, person_colour, colours);
