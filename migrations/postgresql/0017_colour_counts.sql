-- Images by garment colour, kept by triggers as SQLite's step 17 keeps them
-- (see migrations/0017_colour_counts.sql): per effective colour
-- (coalesce(person_colour, colour)), its images and those a person gave.
-- Rows inserted or deleted are counted once per statement from its
-- transition tables; an update (a colour measured, set or taken back) per row.
CREATE TABLE colour_counts (
    colour    text   NOT NULL PRIMARY KEY,
    images    bigint NOT NULL,
    by_person bigint NOT NULL
);

INSERT INTO colour_counts (colour, images, by_person)
SELECT coalesce(person_colour, colour), count(*), count(person_colour) FROM images
WHERE coalesce(person_colour, colour) IS NOT NULL GROUP BY coalesce(person_colour, colour);

CREATE FUNCTION colours_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO colour_counts AS k (colour, images, by_person)
        SELECT coalesce(a.person_colour, a.colour), count(*), count(a.person_colour) FROM added AS a
        WHERE coalesce(a.person_colour, a.colour) IS NOT NULL GROUP BY coalesce(a.person_colour, a.colour)
        ON CONFLICT (colour) DO UPDATE SET images = k.images + excluded.images, by_person = k.by_person + excluded.by_person;
    ELSE
        INSERT INTO colour_counts AS k (colour, images, by_person)
        SELECT coalesce(r.person_colour, r.colour), -count(*), -count(r.person_colour) FROM removed AS r
        WHERE coalesce(r.person_colour, r.colour) IS NOT NULL GROUP BY coalesce(r.person_colour, r.colour)
        ON CONFLICT (colour) DO UPDATE SET images = k.images + excluded.images, by_person = k.by_person + excluded.by_person;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER colour_counts_on_insert AFTER INSERT ON images REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION colours_counted();
CREATE TRIGGER colour_counts_on_delete AFTER DELETE ON images REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION colours_counted();

CREATE FUNCTION add_to_colour_counts(effective text, person_gave boolean, sign integer) RETURNS void LANGUAGE sql AS $$
    INSERT INTO colour_counts AS k (colour, images, by_person)
    SELECT effective, sign, sign * person_gave::integer WHERE effective IS NOT NULL
    ON CONFLICT (colour) DO UPDATE SET images = k.images + excluded.images, by_person = k.by_person + excluded.by_person;
$$;

CREATE FUNCTION colour_counts_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM add_to_colour_counts(coalesce(OLD.person_colour, OLD.colour), OLD.person_colour IS NOT NULL, -1);
    PERFORM add_to_colour_counts(coalesce(NEW.person_colour, NEW.colour), NEW.person_colour IS NOT NULL, 1);
    RETURN NULL;
END $$;
CREATE TRIGGER colour_counts_on_update AFTER UPDATE OF colour, person_colour ON images
    FOR EACH ROW WHEN ((coalesce(OLD.person_colour, OLD.colour), OLD.person_colour IS NULL) IS DISTINCT FROM
                       (coalesce(NEW.person_colour, NEW.colour), NEW.person_colour IS NULL))
    EXECUTE FUNCTION colour_counts_follow();
