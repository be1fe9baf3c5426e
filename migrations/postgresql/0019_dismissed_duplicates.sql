-- Pairs of images a person said are not the same photo, as SQLite's step 19 keeps them (see
-- migrations/0019_dismissed_duplicates.sql), the lower id first.
CREATE TABLE dismissed_duplicates (
    image_id       bigint NOT NULL REFERENCES images(id),
    other_image_id bigint NOT NULL REFERENCES images(id),
    dismissed_at   bigint NOT NULL,
    PRIMARY KEY (image_id, other_image_id),
    CHECK (image_id < other_image_id)
);
CREATE INDEX dismissed_duplicates_by_other ON dismissed_duplicates(other_image_id);
