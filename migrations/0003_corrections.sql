-- Labels set by a person. Kept apart from classifications so that no later
-- run can overwrite them; the latest correction of an image is the one that
-- counts, earlier ones stay as its history.
CREATE TABLE corrections (
    id           INTEGER PRIMARY KEY,
    image_id     INTEGER NOT NULL REFERENCES images(id),
    label        INTEGER NOT NULL CHECK (label BETWEEN 0 AND 9),
    corrected_at INTEGER NOT NULL
);
CREATE INDEX corrections_by_image ON corrections(image_id, id);
