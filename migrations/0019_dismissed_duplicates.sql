-- Pairs of images a person said are not the same photo (`wardrobe duplicates --dismiss`):
-- a group `duplicates` printed, dismissed, is kept as every pair in it, so that it does not
-- come back, while an image added later that is the same photo as one of them still groups
-- with it. The lower id first.
CREATE TABLE dismissed_duplicates (
    image_id       INTEGER NOT NULL REFERENCES images(id),
    other_image_id INTEGER NOT NULL REFERENCES images(id),
    dismissed_at   INTEGER NOT NULL,
    PRIMARY KEY (image_id, other_image_id),
    CHECK (image_id < other_image_id)
) WITHOUT ROWID;
CREATE INDEX dismissed_duplicates_by_other ON dismissed_duplicates(other_image_id);
