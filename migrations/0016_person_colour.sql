-- A person's colour for an image, kept as a person's labels are (0006): every act a row of
-- colour_corrections, a colour set ('colour', one palette name) or taken back ('clear', no
-- colour), with when and through which command; an image's latest act wins. No re-run
-- (`reclassify`, `colours`, a re-import) writes here, so none changes what a person said.
CREATE TABLE colour_corrections (
    id           INTEGER PRIMARY KEY,
    image_id     INTEGER NOT NULL REFERENCES images(id),
    kind         TEXT    NOT NULL CHECK (kind IN ('colour', 'clear')),
    colour       TEXT,
    command      TEXT    NOT NULL,
    corrected_at INTEGER NOT NULL,
    CHECK ((kind = 'clear') = (colour IS NULL))
);
CREATE INDEX colour_corrections_by_image ON colour_corrections(image_id, id);

-- The person's current colour sits beside the measured one, so the colour every query uses
-- (the person's, else the measured) is one indexed expression. (Not a generated column, as
-- effective_label is: SQLite 3.40's VACUUM INTO on a read-only connection fails on images
-- with one, "table vacuum_db.images has 15 columns but 16 values were supplied".)
ALTER TABLE images ADD COLUMN person_colour TEXT;
CREATE INDEX images_by_effective_colour ON images (coalesce(person_colour, colour));

-- A person's act reaches the image at once.
CREATE TRIGGER colour_corrections_reach_images
AFTER INSERT ON colour_corrections
BEGIN
    UPDATE images SET person_colour = NEW.colour WHERE id = NEW.image_id;
END;
