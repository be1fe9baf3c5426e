-- `wardrobe stats` counts images by garment colour (a person's, else the
-- measured one: coalesce(person_colour, colour), see 0014 and 0016); on a
-- million images that walk took about 200 ms. The counts are kept here by
-- triggers, as 0015 keeps the others: per effective colour, its images and
-- those whose colour a person gave. Images with no colour have no row: they
-- are the images of catalogue_counts less the sum of these.
CREATE TABLE colour_counts (
    colour    TEXT    NOT NULL PRIMARY KEY,
    images    INTEGER NOT NULL,
    by_person INTEGER NOT NULL
) WITHOUT ROWID;

INSERT INTO colour_counts (colour, images, by_person)
SELECT coalesce(person_colour, colour), count(*), count(person_colour) FROM images
WHERE coalesce(person_colour, colour) IS NOT NULL GROUP BY coalesce(person_colour, colour);

CREATE TRIGGER colour_counts_on_insert AFTER INSERT ON images
WHEN coalesce(NEW.person_colour, NEW.colour) IS NOT NULL
BEGIN
    INSERT INTO colour_counts (colour, images, by_person)
    VALUES (coalesce(NEW.person_colour, NEW.colour), 1, NEW.person_colour IS NOT NULL)
    ON CONFLICT (colour) DO UPDATE SET images = images + 1, by_person = by_person + excluded.by_person;
END;

CREATE TRIGGER colour_counts_on_delete AFTER DELETE ON images
WHEN coalesce(OLD.person_colour, OLD.colour) IS NOT NULL
BEGIN
    INSERT INTO colour_counts (colour, images, by_person)
    VALUES (coalesce(OLD.person_colour, OLD.colour), -1, -(OLD.person_colour IS NOT NULL))
    ON CONFLICT (colour) DO UPDATE SET images = images - 1, by_person = by_person + excluded.by_person;
END;

-- A colour measured, set or taken back: the old part away, the new one added.
CREATE TRIGGER colour_counts_on_update AFTER UPDATE OF colour, person_colour ON images
WHEN coalesce(OLD.person_colour, OLD.colour) IS NOT coalesce(NEW.person_colour, NEW.colour)
  OR (OLD.person_colour IS NULL) IS NOT (NEW.person_colour IS NULL)
BEGIN
    INSERT INTO colour_counts (colour, images, by_person)
    SELECT coalesce(OLD.person_colour, OLD.colour), -1, -(OLD.person_colour IS NOT NULL)
    WHERE coalesce(OLD.person_colour, OLD.colour) IS NOT NULL
    ON CONFLICT (colour) DO UPDATE SET images = images - 1, by_person = by_person + excluded.by_person;
    INSERT INTO colour_counts (colour, images, by_person)
    SELECT coalesce(NEW.person_colour, NEW.colour), 1, NEW.person_colour IS NOT NULL
    WHERE coalesce(NEW.person_colour, NEW.colour) IS NOT NULL
    ON CONFLICT (colour) DO UPDATE SET images = images + 1, by_person = by_person + excluded.by_person;
END;
